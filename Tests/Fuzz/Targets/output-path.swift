// Fuzz target: output paths that name devices, FIFOs, sockets, folders, disks and links. Each
// input makes one node in a scratch folder and writes to it as --trace, --out or --gif would,
// then checks that nothing but a regular file (or nothing) was ever replaced, that what cannot be
// written was refused, that a FIFO got every byte, and that no temporary file stayed behind.
import Glibc
import LinuxSystem

/// The scratch folder of this process, made once.
let scratchFolder: String = {
    var template = Array("/tmp/crownpager-fuzz-output-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("output-path: mkdtemp failed: \(Errno(rawValue: errno))") }
    return String(cString: made)
}()

/// The node kinds an output path can meet.
enum Node: UInt8, CaseIterable {
    case absent, regularFile, nullDevice, fifo, folder, blockDevice, danglingLink, linkToNull, linkToFile, socket
}

/// lstat's kind, device number and inode: what must stay the same for a node that is not a regular file.
struct Identity: Equatable {
    var kind: mode_t
    var device: dev_t
    var inode: ino_t
}

func identity(_ path: String) -> Identity? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return Identity(kind: status.st_mode & S_IFMT, device: status.st_rdev, inode: status.st_ino)
}

func contents(_ path: String) -> [UInt8] {
    (try? FileSystem.readFile(atPath: path, maximumBytes: 1 << 20)) ?? []
}

/// Makes `node` at `path`; returns a descriptor that reads what reaches it (a FIFO's or a socket's), if any.
func make(_ node: Node, at path: String) -> CInt? {
    let root = geteuid() == 0
    switch node {
    case .absent: return nil
    case .regularFile: precondition((try? FileSystem.writeAtomically([1, 2, 3], toPath: path)) != nil)
    case .nullDevice:
        // mknod(2) of a character device needs root; without it, the kernel's own /dev/null through a link.
        let null: dev_t = 1 << 8 | 3
        precondition(root ? mknod(path, S_IFCHR | 0o666, null) == 0 : symlink("/dev/null", path) == 0)
    case .fifo:
        precondition(mkfifo(path, 0o600) == 0)
        // A reader that does not block, so the writer's open finds one; a pipe holds 64 KiB, more than an input.
        return open(path, O_RDONLY | O_NONBLOCK)
    case .folder: precondition(mkdir(path, 0o700) == 0)
    case .blockDevice:
        // A device number no disk has: even a wrong open could not write a disk.
        let nowhere: dev_t = 259 << 8 | 250
        precondition(root ? mknod(path, S_IFBLK | 0o600, nowhere) == 0 : mkdir(path, 0o700) == 0)
    case .danglingLink: precondition(symlink("nowhere", path) == 0)
    case .linkToNull: precondition(symlink("/dev/null", path) == 0)
    case .linkToFile:
        precondition((try? FileSystem.writeAtomically([9], toPath: scratchFolder + "/target")) != nil)
        precondition(symlink("target", path) == 0)
    case .socket:
        let socket = Glibc.socket(AF_UNIX, CInt(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        precondition(socket >= 0 && bound == 0)
        return socket
    }
    return nil
}

/// Everything a descriptor holds now, without waiting.
func drain(_ descriptor: CInt) -> [UInt8] {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 17)
    while true {
        // Both are opened without blocking (a FIFO with O_NONBLOCK, a socket's reads with MSG_DONTWAIT).
        let count = buffer.withUnsafeMutableBytes { buffer -> Int in
            let taken = recv(descriptor, buffer.baseAddress, buffer.count, CInt(MSG_DONTWAIT))
            return taken < 0 && errno == ENOTSOCK ? read(descriptor, buffer.baseAddress, buffer.count) : taken
        }
        guard count > 0 else { return received }
        received += buffer[..<count]
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOutputPath(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(data, count)
    guard bytes.count >= 3, let node = Node(rawValue: bytes[0] % UInt8(Node.allCases.count)) else { return 0 }
    let path = ["\(scratchFolder)/out", "\(scratchFolder)/./out", "\(scratchFolder)/../\(lastComponent)/out"][
        Int(bytes[1] % 3)]
    let payload = Array(bytes.dropFirst(3))
    let reader = make(node, at: scratchFolder + "/out")
    let before = identity(scratchFolder + "/out")

    var refused: FileSystemError?
    do {
        // A datagram socket gets one write: a reader that never reads would fill its queue and block the next.
        switch node == .socket ? 0 : bytes[2] % 3 {
        case 0: try FileSystem.writeAtomically(payload, toPath: path)
        case 1:
            // As --gif and --trace write: one open, several writes.
            let file = try OutputFile(creating: path)
            for piece in payload.chunks(of: 1 + Int(bytes[2] / 3)) { try file.write(Array(piece)) }
            try file.close()
        default: try FileSystem.writeAtomically(payload, toPath: path, durable: true)
        }
    } catch {
        refused = error
    }

    let after = identity(scratchFolder + "/out")
    switch node {
    case .absent, .regularFile:
        precondition(refused == nil, "\(node): \(String(describing: refused))")
        precondition(after?.kind == S_IFREG && contents(scratchFolder + "/out") == payload)
    case .nullDevice, .fifo, .socket, .linkToNull:
        // Written in place: the very same node, never a file in its place.
        precondition(after == before, "\(node) replaced")
        if node != .socket { precondition(refused == nil, "\(node): \(String(describing: refused))") }
        if node == .fifo, let reader { precondition(drain(reader) == payload) }
        if node == .socket, let reader, refused == nil, !payload.isEmpty { precondition(!drain(reader).isEmpty) }
    case .folder, .blockDevice, .danglingLink:
        guard case .unsuitableOutput? = refused else {
            preconditionFailure("\(node) not refused: \(String(describing: refused))")
        }
        precondition(after == before, "\(node) replaced")
    case .linkToFile:
        precondition(refused == nil && after?.kind == S_IFLNK && contents(scratchFolder + "/target") == payload)
    }
    if let reader { close(reader) }

    // Nothing but the node and a link's target: no temporary file left behind.
    let left = Set(listing(scratchFolder))
    precondition(left.isSubset(of: ["out", "target"]), "left behind: \(left)")
    for name in left { remove(scratchFolder + "/" + name) }
    return 0
}

/// The scratch folder's own name, for a path that leaves and re-enters it.
let lastComponent = String(scratchFolder.split(separator: "/").last ?? "")

func listing(_ folder: String) -> [String] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}

extension Array {
    /// The array in consecutive pieces of at most `size` elements.
    func chunks(of size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
