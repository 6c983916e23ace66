import PagerSettings

/// The files the user gave the browser page (pictures for image pages and indicators, BDF fonts),
/// kept by name in the module's memory: the page has no file system, so a configuration's path
/// is matched by its last component, and `image = "/etc/crownpager/logo.png"` reads the
/// `logo.png` the user added.
///
/// Two caps keep a dropped folder from filling the module's memory, which WebAssembly can grow
/// but never give back: a file may hold at most ``maximumFileBytes`` (16 MiB, the largest file
/// `run` reads, a BDF font such as Unifont's 11 MB), all files together ``maximumTotalBytes``
/// (32 MiB). A file over a cap is refused with a sentence saying so; what the files hold is only
/// decoded when a configuration names them, so bad bytes give `check`'s own message at its line.
package struct WebFileStore: FileReading {
    /// The most bytes one file may hold: 16 MiB (`FontFile.maximumBytes`, the largest any reader asks for).
    package static let maximumFileBytes = FontFile.maximumBytes
    /// The most bytes all files may hold together: 32 MiB.
    package static let maximumTotalBytes = 32 << 20

    /// The files by name, in the order added (a file added again under its name replaces the old one).
    package private(set) var files: [(name: String, bytes: [UInt8])] = []

    /// No files.
    package init() {}

    /// The bytes all files hold together.
    package var totalBytes: Int { files.reduce(0) { $0 + $1.bytes.count } }

    /// The names of the files, in the order added.
    package var names: [String] { files.map { $0.name } }

    /// The name a path is matched by: its last component (`/etc/crownpager/logo.png` → `logo.png`; empty for `/`).
    package static func name(of path: String) -> String {
        path.split(separator: "/").last.map { String($0) } ?? ""
    }

    /// Keeps `bytes` under the last component of `name`, replacing a file of that name.
    /// Throws (keeping nothing) for an empty name, a file over ``maximumFileBytes`` or files over
    /// ``maximumTotalBytes`` together.
    package mutating func add(name: String, bytes: [UInt8]) throws(WebFileError) {
        let key = Self.name(of: name)
        guard !key.isEmpty else { throw WebFileError("a file needs a name") }
        guard bytes.count <= Self.maximumFileBytes else {
            throw WebFileError(
                "\(key) is \(bytes.count) bytes: a file may hold at most \(Self.maximumFileBytes) bytes here")
        }
        let others = files.filter { $0.name != key }
        let total = others.reduce(bytes.count) { $0 + $1.bytes.count }
        guard total <= Self.maximumTotalBytes else {
            throw WebFileError(
                "\(key) would make the page's files \(total) bytes: they may hold at most \(Self.maximumTotalBytes) bytes together; remove some (Clear files)"
            )
        }
        files = others + [(key, bytes)]
    }

    /// Forgets every file.
    package mutating func removeAll() { files.removeAll() }

    /// The bytes of the file named as the last component of `path`; throws when the page has none
    /// of that name (saying to add it) or it holds more than `maximumBytes`.
    package func bytes(atPath path: String, maximumBytes: Int) throws(FileReadError) -> [UInt8] {
        let key = Self.name(of: path)
        guard let file = files.first(where: { $0.name == key }) else {
            throw FileReadError(
                "could not open \(path): the page has no file \(key); add \(key) to the page (Add files…)")
        }
        guard file.bytes.count <= maximumBytes else {
            throw FileReadError("\(key) is \(file.bytes.count) bytes, more than the \(maximumBytes) read here")
        }
        return file.bytes
    }
}

/// Why the page could not keep a file: a sentence naming it and the cap.
package struct WebFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sentence shown on the page.
    package var description: String

    /// An error with its explanation.
    package init(_ description: String) { self.description = description }
}
