import CrownVocabulary
import Glibc

/// Readings of the machine for the demo's system pages: load, memory, uptime, host name.
///
/// Each reading opens its /proc file afresh and parses it with `ProcParsers`; a missing or
/// unreadable file is a typed error naming it, never a crash.
package struct SystemReadings: Sendable {
    /// Where procfs is mounted; tests point it at a folder of their own files.
    package var procRoot: String

    /// Readings from the procfs at `procRoot`.
    package init(procRoot: String = "/proc") {
        self.procRoot = procRoot
    }

    /// The 1, 5 and 15 minute load averages.
    package func loadAverage() throws(SystemReadingError) -> LoadAverage {
        let path = procRoot + "/loadavg"
        return try ProcParsers.loadAverage(read(path), path: path)
    }

    /// Total and available memory.
    package func memory() throws(SystemReadingError) -> MemoryReading {
        let path = procRoot + "/meminfo"
        return try ProcParsers.memory(read(path), path: path)
    }

    /// The time since the system booted.
    package func uptime() throws(SystemReadingError) -> TimeSpan {
        let path = procRoot + "/uptime"
        return try ProcParsers.uptime(read(path), path: path)
    }

    /// The machine's host name.
    package static func hostname() throws(SystemReadingError) -> String {
        // HOST_NAME_MAX is 64 on Linux; the spare byte guarantees a terminating NUL.
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { throw .hostname(errno: .current) }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func read(_ path: String) throws(SystemReadingError) -> String {
        do throws(FileSystemError) {
            return try FileSystem.readText(atPath: path, maximumBytes: 1 << 16)
        } catch {
            throw .unreadable(error)
        }
    }
}
