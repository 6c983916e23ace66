import Foundation
import Glibc
import LinuxSystem
import TestSupport
import Testing

/// `Readiness.wait`, the run loop's poll(2).
@Suite struct ReadinessTests {
    @Test func withoutATimeoutItWaitsForTheEventInsteadOfReturningAtOnce() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let writer = ends[1]
        // The byte is written only once this thread is inside poll(2) (its /proc syscall file
        // says so): a wait that does not block (the loop that spun at 100% CPU with nothing
        // scheduled) returns before it, with nothing ready, and a byte written early cannot make
        // the test pass without a wait.
        let task = try #require(Self.threadTask())
        Thread.detachNewThread {
            _ = waitUntil(seconds: 10, every: 0.001) { Self.isPolling(task) }
            var byte: UInt8 = 1
            _ = write(writer, &byte, 1)
            close(writer)
        }
        let ready = try Readiness.wait(for: [ends[0]], timeoutMilliseconds: -1)
        #expect(ready == [true])
    }

    /// `/proc/self/task/TID` of the calling thread.
    static func threadTask() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return "/proc/" + String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether the thread at `task` is blocked in poll(2) or ppoll(2) now.
    static func isPolling(_ task: String) -> Bool {
        guard let text = try? String(contentsOfFile: task + "/syscall", encoding: .utf8),
            let number = text.split(separator: " ").first.flatMap({ Int($0) })
        else { return false }
        #if arch(x86_64)
            return number == 7 || number == 271
        #else
            return number == 73
        #endif
    }

    @Test func aZeroTimeoutOnlyLooks() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        #expect(try Readiness.wait(for: [ends[0]], timeoutMilliseconds: 0) == [false])
        var byte: UInt8 = 1
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(try Readiness.wait(for: [ends[0]], timeoutMilliseconds: 0) == [true])
    }

    @Test func aDescriptorWithBytesToWriteIsReadyWhenItCanTakeThem() throws {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        // Nothing to read: only the wish to write makes it ready (an MQTT publish the buffer did not take whole).
        #expect(try Readiness.wait(for: [ends[0]], timeoutMilliseconds: 0) == [false])
        #expect(try Readiness.wait(for: [ends[0]], writing: [ends[0]], timeoutMilliseconds: 0) == [true])
        // A full buffer is not writable: the loop sleeps until the peer drains it.
        #expect(fcntl(ends[0], F_SETFL, O_NONBLOCK) == 0)
        var chunk = [UInt8](repeating: 0, count: 65536)
        while write(ends[0], &chunk, chunk.count) > 0 {}
        #expect(try Readiness.wait(for: [ends[0]], writing: [ends[0]], timeoutMilliseconds: 0) == [false])
    }
}
