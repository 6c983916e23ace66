import Glibc

/// A process as `/proc/<pid>/stat` shows it: enough to find a command's orphans.
struct ProcessStatus: Hashable, Sendable {
    /// The process id.
    var pid: pid_t
    /// The state letter: `R`, `S`, `D`, `Z` (a zombie, not yet reaped), ...
    var state: Character
    /// The parent's process id.
    var parent: pid_t
    /// The process group id.
    var group: pid_t

    /// Parses a stat line: `pid (comm) state ppid pgrp ...`; the name may hold spaces and parentheses.
    init?(statLine: String) {
        guard let close = statLine.lastIndex(of: ")"),
            let pid = pid_t(statLine.prefix { $0 != " " })
        else { return nil }
        let fields = statLine[statLine.index(after: close)...].split(separator: " ")
        guard fields.count >= 3, let state = fields[0].first, let parent = pid_t(fields[1]),
            let group = pid_t(fields[2])
        else { return nil }
        self.pid = pid
        self.state = state
        self.parent = parent
        self.group = group
    }

    /// The processes whose parent is `parent`, from a walk of /proc (those this process may see).
    static func children(of parent: pid_t) -> [ProcessStatus] {
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        var children: [ProcessStatus] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let pid = pid_t(name), pid > 0 else { continue }
            let line = String(decoding: read("/proc/\(pid)/stat", upTo: 1024), as: UTF8.self)
            if let status = ProcessStatus(statLine: line), status.parent == parent { children.append(status) }
        }
        return children
    }

    /// The entries of `pid`'s environment as it started (`/proc/<pid>/environ`); empty if unreadable.
    static func environment(of pid: pid_t) -> [[UInt8]] {
        read("/proc/\(pid)/environ", upTo: 1 << 20).split(separator: 0).map(Array.init)
    }

    /// At most `limit` bytes of a /proc file; empty if it cannot be read (the process is gone).
    private static func read(_ path: String, upTo limit: Int) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, Errno.current == .interrupted { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return bytes
    }
}
