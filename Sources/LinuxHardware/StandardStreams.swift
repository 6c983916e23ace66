import Glibc

/// The process's standard error, for messages to the operator from code that must not `print`.
public enum StandardError {
    /// Writes `text` and a new line to standard error; a failure to write is ignored, there being nowhere to report it.
    public static func writeLine(_ text: String) {
        _ = try? FileDescriptor.standardError.writeAll(Array((text + "\n").utf8))
    }
}

/// The wall clock as Unix time, for turning a monotonic offset into a later wall-clock reading.
public enum WallClock {
    /// Nanoseconds since 1970-01-01 UTC (CLOCK_REALTIME).
    public static func nanosecondsSinceEpoch() -> Int64 {
        var time = timespec()
        _ = clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }
}

/// The process's standard output, written straight to the descriptor so each line leaves at once, even into a pipe.
public enum StandardOutput {
    /// Whether standard output is a terminal (not a pipe or a file).
    public static var isTerminal: Bool { isatty(FileDescriptor.standardOutput.rawValue) == 1 }

    /// Writes `text` as it is; a failure to write (a closed pipe) is ignored.
    public static func write(_ text: String) {
        _ = try? FileDescriptor.standardOutput.writeAll(Array(text.utf8))
    }
}
