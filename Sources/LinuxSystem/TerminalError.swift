/// Why the terminal session could not start, read or write.
package enum TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `stream` (e.g. "standard input") is a pipe, a file or /dev/null rather than a terminal.
    case notATerminal(stream: String)
    /// A system call on the terminal failed; `operation` names it (e.g. `tcsetattr`).
    case system(operation: String, errno: Errno)
    /// The terminal hung up: reading it returned end of file.
    case inputClosed
    /// Another session already restores the terminal on signals; only one may at a time.
    case anotherSessionActive

    /// A sentence for the operator, with a hint where one helps.
    package var description: String {
        switch self {
        case .notATerminal(let stream):
            return "\(stream) is not a terminal: run the desktop mock in an interactive terminal "
                + "(tmux and SSH are fine) without redirecting its input or output"
        case .system(let operation, let errno):
            return "\(operation) on the terminal failed: \(errno.sentence)"
        case .inputClosed:
            return "the terminal closed its input (hang-up or end of file)"
        case .anotherSessionActive:
            return "another terminal session is already in raw mode; restore it before starting a new one"
        }
    }
}
