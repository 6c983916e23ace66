import Glibc

/// How much a line for the operator matters: syslog's levels, by which the journal files it.
package enum LogPriority: Int, Hashable, Sendable {
    /// Something failed (LOG_ERR): `journalctl -p err` shows it.
    case error = 3
    /// Something is wrong but the program goes on (LOG_WARNING).
    case warning = 4
    /// What the program does (LOG_INFO).
    case info = 6
}

/// The process's standard error, for messages to the operator from code that must not `print`.
package enum StandardError {
    /// Writes `text` and a new line to standard error; a failure to write is ignored, there being nowhere to report it.
    package static func writeLine(_ text: String) {
        _ = try? FileDescriptor.standardError.writeAll(Array((text + "\n").utf8))
    }

    /// Writes `text` at `priority`: with the journal's `<N>` before each line when standard error
    /// is the journal, as it is plain otherwise.
    package static func writeLine(_ text: String, priority: LogPriority) {
        writeLine(isJournal ? JournalStream.prefixed(text, priority: priority) : text)
    }

    /// Whether standard error is a stream to the journal (systemd's `StandardError=journal`),
    /// decided once: the descriptor does not change under a running program.
    package static let isJournal: Bool = {
        guard let value = getenv("JOURNAL_STREAM") else { return false }
        var status = stat()
        guard fstat(FileDescriptor.standardError.rawValue, &status) == 0 else { return false }
        return JournalStream.names(String(cString: value), device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }()
}

/// The journal's stream protocol, as systemd documents it for services (systemd.exec(5), JOURNAL_STREAM).
package enum JournalStream {
    /// Whether JOURNAL_STREAM's `value`, "DEVICE:INODE" in decimal, names the file with `device` and
    /// `inode`: the journal's stream is standard error itself, not a file or terminal standard
    /// error was redirected to since (the variable is inherited).
    package static func names(_ value: String, device: UInt64, inode: UInt64) -> Bool {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let named = UInt64(parts[0]), let number = UInt64(parts[1]) else { return false }
        return named == device && number == inode
    }

    /// `text` with `<N>` (the priority's syslog level) before each of its lines: the journal
    /// reads it off each line it receives and files the line at that level.
    package static func prefixed(_ text: String, priority: LogPriority) -> String {
        let prefix = "<\(priority.rawValue)>"
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }.joined(separator: "\n")
    }
}

/// The wall clock as Unix time, for turning a monotonic offset into a later wall-clock reading.
package enum WallClock {
    /// Nanoseconds since 1970-01-01 UTC (CLOCK_REALTIME).
    package static func nanosecondsSinceEpoch() -> Int64 {
        var time = timespec()
        _ = clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }
}

/// The process's standard output, written straight to the descriptor so each line leaves at once, even into a pipe.
package enum StandardOutput {
    /// Whether standard output is a terminal (not a pipe or a file).
    package static var isTerminal: Bool { isatty(FileDescriptor.standardOutput.rawValue) == 1 }

    /// Writes `text` as it is; a failure to write (a closed pipe) is ignored.
    package static func write(_ text: String) {
        _ = try? FileDescriptor.standardOutput.writeAll(Array(text.utf8))
    }
}
