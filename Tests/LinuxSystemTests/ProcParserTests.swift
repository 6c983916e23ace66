import CrownVocabulary
import Foundation
import LinuxSystem
import Testing

@Suite("System readings")
struct ProcParserTests {
    @Test("load averages in hundredths")
    func loadAverage() throws {
        let reading = try ProcParsers.loadAverage("0.52 1.05 12.3 2/467 12345\n")
        #expect(
            reading == LoadAverage(oneMinuteHundredths: 52, fiveMinutesHundredths: 105, fifteenMinutesHundredths: 1230))
        #expect(
            try ProcParsers.loadAverage("0 0.999 3.14159")
                == LoadAverage(
                    oneMinuteHundredths: 0, fiveMinutesHundredths: 99, fifteenMinutesHundredths: 314))
    }

    @Test(
        "malformed load averages are typed errors naming the file",
        arguments: [
            "", "0.52 0.58", "0.52 abc 0.59", "-1.0 0.5 0.5", ".5 0.5 0.5", "1.2.3 0.5 0.5", "99999999999999999999 0 0",
        ])
    func malformedLoadAverage(text: String) {
        #expect {
            try ProcParsers.loadAverage(text, path: "/proc/loadavg")
        } throws: { error in
            guard case .malformed(let path, _) = error as? SystemReadingError else { return false }
            return path == "/proc/loadavg"
        }
    }

    static let meminfo = """
        MemTotal:       16318412 kB
        MemFree:         1234567 kB
        MemAvailable:    8000000 kB
        Buffers:          100000 kB
        Cached:          2000000 kB
        HugePages_Total:       0
        """

    @Test("memory total and available in bytes")
    func memory() throws {
        let reading = try ProcParsers.memory(Self.meminfo)
        #expect(reading == MemoryReading(totalBytes: 16_318_412 * 1024, availableBytes: 8_000_000 * 1024))
        #expect(reading.usedBytes == (16_318_412 - 8_000_000) * 1024)
    }

    @Test("old kernels without MemAvailable use MemFree + Buffers + Cached")
    func memoryFallback() throws {
        let old = Self.meminfo.split(separator: "\n").filter { !$0.hasPrefix("MemAvailable") }.joined(separator: "\n")
        let reading = try ProcParsers.memory(old)
        #expect(reading.availableBytes == (1_234_567 + 100_000 + 2_000_000) * 1024)
    }

    @Test("meminfo without the needed lines is malformed")
    func memoryMalformed() {
        for text in ["", "MemFree: 12 kB\nMemAvailable: 5 kB", "MemTotal: 100 kB\nMemFree: 5 kB", "MemTotal: lots kB"] {
            #expect(throws: SystemReadingError.self, "\(text)") { try ProcParsers.memory(text) }
        }
    }

    @Test("uptime as a time span")
    func uptime() throws {
        #expect(try ProcParsers.uptime("12345.67 54321.00\n") == TimeSpan(nanoseconds: 12_345_670_000_000))
        #expect(try ProcParsers.uptime("3 1") == .seconds(3))
        for bad in ["", "\n", "abc 1", "-5 1", "1e5 2"] {
            #expect(throws: SystemReadingError.self, "\(bad)") { try ProcParsers.uptime(bad) }
        }
    }

    @Test("readings from a procfs folder, and a typed error naming a missing file")
    func readingsFromFolder() throws {
        let root = try TemporaryDirectory()
        try "1.00 2.00 3.00 1/2 3\n".write(toFile: root.path + "/loadavg", atomically: true, encoding: .utf8)
        try Self.meminfo.write(toFile: root.path + "/meminfo", atomically: true, encoding: .utf8)
        let readings = SystemReadings(procRoot: root.path)
        #expect(try readings.loadAverage().fiveMinutesHundredths == 200)
        #expect(try readings.memory().totalBytes == 16_318_412 * 1024)
        do throws(SystemReadingError) {
            _ = try readings.uptime()
            Issue.record("reading a missing uptime file succeeded")
        } catch {
            #expect(
                error
                    == .unreadable(
                        .failed(operation: .open, path: root.path + "/uptime", errno: .noSuchFileOrDirectory)))
            #expect(error.description.contains(root.path + "/uptime"))
            #expect(error.description.contains("ENOENT"))
        }
    }

    @Test("this machine's own readings")
    func liveReadings() throws {
        let readings = SystemReadings()
        _ = try readings.loadAverage()
        let memory = try readings.memory()
        #expect(memory.totalBytes > 0 && memory.availableBytes <= memory.totalBytes)
        #expect(try readings.uptime() > .zero)
        #expect(try !SystemReadings.hostname().isEmpty)
    }
}

/// A fresh folder under the system's temporary directory, removed when the value goes.
final class TemporaryDirectory {
    let path: String

    init() throws {
        let base = NSTemporaryDirectory() + "crownpager-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        path = base
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
