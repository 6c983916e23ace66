/// Reads the files a configuration names (the pictures of image pages and indicators) for the
/// engine, which never touches a file system itself: the shell passes its own.
package protocol FileReading {
    /// At most `maximumBytes` of the file at `path`; the error says why not, for the operator.
    func bytes(atPath path: String, maximumBytes: Int) throws(FileReadError) -> [UInt8]
}

/// Why a file could not be read: the shell's sentence, naming the file and the cause.
package struct FileReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sentence shown to the operator.
    package var description: String

    /// An error with its explanation.
    package init(_ description: String) { self.description = description }
}

/// Why a picture (an image page's, an indicator's) cannot be used: a sentence that names the
/// file and says what to do.
package struct ImageFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Whether the file could not be read at all, or was read and is no usable picture.
    package enum Kind: Hashable, Sendable {
        /// The file could not be read: missing, not permitted, too large.
        case unreadable
        /// The file (or the built-in name) is no picture that fits: bad PBM, PNG or XBM data, too big, unknown name.
        case invalid
    }

    /// The sentence shown to the operator.
    package var description: String
    /// Whether the file could not be read or its contents are wrong.
    package var kind: Kind

    /// An error with its explanation; `kind` says whether the file could be read.
    package init(_ description: String, kind: Kind = .invalid) {
        self.description = description
        self.kind = kind
    }
}

/// No files at all: for text that names none, such as the built-in configuration; every read
/// fails with "no files are read here".
package struct NoFiles: FileReading {
    package init() {}

    package func bytes(atPath path: String, maximumBytes: Int) throws(FileReadError) -> [UInt8] {
        throw FileReadError("could not open \(path): no files are read here")
    }
}
