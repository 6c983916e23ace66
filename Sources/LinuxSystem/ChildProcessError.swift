/// Why a command could not be started.
package enum ChildProcessError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The program was not found on PATH (or at the path given).
    case notFound(program: String)
    /// The program exists but may not be run.
    case notExecutable(program: String, errno: Errno)
    /// posix_spawn or pipe failed otherwise.
    case system(operation: String, errno: Errno)

    /// A sentence for the page and the journal.
    package var description: String {
        switch self {
        case .notFound(let program):
            return "\(program): not found"
                + (program.contains("/") ? "" : " on PATH (give the full path, e.g. /usr/bin/\(program))")
        case .notExecutable(let program, let errno):
            return "\(program): cannot run: \(errno.sentence)"
                + (errno == .permissionDenied ? " (chmod +x, or check the service user's rights)" : "")
        case .system(let operation, let errno):
            return "\(operation) failed: \(errno.sentence)"
        }
    }
}

/// How a command ended.
package enum ChildProcessExit: Hashable, Sendable, CustomStringConvertible {
    /// It called exit with this status.
    case exited(status: Int32)
    /// A signal ended it.
    case signalled(signal: Int32)

    /// `exit status 3`, `killed by signal 9`.
    package var description: String {
        switch self {
        case .exited(let status): return "exit status \(status)"
        case .signalled(let signal): return "killed by signal \(signal)"
        }
    }
}
