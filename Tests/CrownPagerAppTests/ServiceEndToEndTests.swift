import Foundation
import Glibc
import PagerEngine
import PagerSettings
import TestSupport
import Testing

/// The built `crownpager run` as systemd runs it, on the fake kernel's panel: the notification
/// socket (READY=1, STATUS=, WATCHDOG=1 from the loop) and the journal's priorities on standard error.
@Suite(.tags(.endToEnd), .serialized) struct ServiceEndToEndTests {
    /// The demo's first page, as STATUS= names it.
    static let firstStatus = "STATUS=page 1 of 6, \(Configuration.demo().pages[0].title); the panel is on"

    /// Whether process `pid` is stopped (SIGSTOP), as /proc/PID/stat says, within `deadline` seconds.
    static func waitUntilStopped(_ pid: Int32, deadline: Double = 10) -> Bool {
        waitUntil(seconds: deadline, every: 0.01) {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            // The state follows the command's closing parenthesis: "123 (crownpager) T ...".
            guard let close = stat.lastIndex(of: ")") else { return false }
            return stat[close...].hasPrefix(") T")
        }
    }

    @Test func readyStatusAndWatchdogPingsThatStopWhenTheLoopDoes() throws {
        let fake = try FakeBusRun()
        let listener = try NotificationListener(name: fake.scratch.path + "/notify")
        // A 400 ms watchdog: a ping every 200 ms.
        let (process, _, error) = try fake.start(
            ["run", "--demo", "--i2c-bus", "1"], devices: "1:0x3c",
            extra: ["NOTIFY_SOCKET": listener.name, "WATCHDOG_USEC": "400000"])
        defer { if process.isRunning { process.terminate() } }
        let ready = listener.receive(until: { $0.hasPrefix("READY=1") }, within: 30)
        #expect(ready.found, "\(ready.all)")
        #expect(ready.all.last == "READY=1\n" + Self.firstStatus)
        // Pings keep coming while the loop turns, though the first page asks for no frame.
        var pings = 0
        let end = Date().addingTimeInterval(10)
        while pings < 4, Date() < end {
            if listener.receive(within: 2) == "WATCHDOG=1" { pings += 1 }
        }
        #expect(pings == 4)

        // A loop that does not turn (stopped, as a hung one) sends no ping.
        kill(process.processIdentifier, SIGSTOP)
        #expect(Self.waitUntilStopped(process.processIdentifier))
        _ = listener.drain()
        #expect(listener.receive(within: 1.5) == nil)
        kill(process.processIdentifier, SIGCONT)
        #expect(listener.receive(until: { $0 == "WATCHDOG=1" }, within: 5).found)

        let messages = FakeBusRun.stop(process, error: error)
        #expect(process.terminationStatus == 0, "\(messages)")
        #expect(listener.drain().contains("STOPPING=1"))
    }

    @Test func anAbstractSocketAndAWatchdogForAnotherProcess() throws {
        let fake = try FakeBusRun()
        let listener = try NotificationListener(name: "@crownpager-test-\(getpid())-\(UUID().uuidString.prefix(8))")
        // WATCHDOG_PID names another process (systemd sets it for the main process; a child inherits it).
        let (process, _, error) = try fake.start(
            ["run", "--demo", "--i2c-bus", "1"], devices: "1:0x3c",
            extra: ["NOTIFY_SOCKET": listener.name, "WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1"])
        defer { if process.isRunning { process.terminate() } }
        let ready = listener.receive(until: { $0.hasPrefix("READY=1") }, within: 30)
        #expect(ready.found, "\(ready.all)")
        // The clock on the next page ticks, but nothing on the first page changes: no status, no ping.
        #expect(listener.receive(within: 1) == nil)
        let messages = FakeBusRun.stop(process, error: error)
        #expect(process.terminationStatus == 0, "\(messages)")
    }

    @Test func aNotificationSocketNobodyListensOnIsAWarningAndTheRunGoesOn() throws {
        // A ping every 10 ms, each failing: the warning comes once.
        let run = try Self.standardError(
            ["run", "--demo", "--i2c-bus", "1"], devices: "1:0x3c", journal: false,
            extra: ["NOTIFY_SOCKET": "/nonexistent/notify", "WATCHDOG_USEC": "20000"]
        ) { fake, text in
            guard text.contains("cannot notify systemd") else { return false }
            return try fake.transfers().contains { $0.bytes.first == 0x40 }
        }
        #expect(run.status == 0, "\(run.text)")
        let warnings = run.text.split(separator: "\n").map(String.init).filter { $0.contains("cannot notify systemd") }
        #expect(
            warnings == [
                "crownpager: warning: cannot notify systemd through /nonexistent/notify: No such file or directory; "
                    + "the service goes on"
            ], "\(run.text)")
    }

    /// Runs `arguments` on the fake panel with standard error in a file and `extra` in the
    /// environment; `journal`: JOURNAL_STREAM names that file, as systemd names the journal's
    /// stream. Ends it with SIGTERM once `ready` holds for what it wrote (the first frame by
    /// default), unless it ends by itself. Returns its exit status and standard error.
    static func standardError(
        _ arguments: [String], devices: String, journal: Bool, extra: [String: String] = [:],
        ready: (FakeBusRun, String) throws -> Bool = { fake, _ in
            try fake.transfers().contains { $0.bytes.first == 0x40 }
        }
    ) throws -> (status: Int32, text: String) {
        let fake = try FakeBusRun()
        let path = fake.scratch.path + "/stderr.txt"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let file = try #require(FileHandle(forWritingAtPath: path))
        var status = stat()
        #expect(stat(path, &status) == 0)
        let process = Process()
        process.executableURL = crownPagerExecutable()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment.merging(fake.environment(devices: devices)) { $1 }
        // A stream that is not standard error's file is not the journal (the variable is inherited).
        environment["JOURNAL_STREAM"] = journal ? "\(status.st_dev):\(status.st_ino)" : "\(status.st_dev):1"
        process.environment = environment.merging(extra) { $1 }
        process.standardError = file
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        _ = try waitUntil(seconds: 20) {
            guard process.isRunning else { return true }
            guard try ready(fake, try String(contentsOfFile: path, encoding: .utf8)) else { return false }
            process.terminate()
            return true
        }
        process.waitUntilExit()
        try file.close()
        return (process.terminationStatus, try String(contentsOfFile: path, encoding: .utf8))
    }

    @Test func linesCarryTheJournalsPrioritiesWhenStandardErrorIsTheJournal() throws {
        let run = try Self.standardError(["run", "--demo", "--i2c-bus", "1"], devices: "1:0x3c", journal: true).text
        let lines = run.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("<6>crownpager: driving 128x64 at 0x3c on /dev/i2c-1") }, "\(run)")
        #expect(lines.contains { $0.hasPrefix("<4>crownpager: no knob (could not open /dev/gpiochip0") }, "\(run)")
        #expect(lines.contains { $0.hasPrefix("<6>crownpager: stopping: the crown turned 0 detents") }, "\(run)")
        #expect(lines.allSatisfy { $0.hasPrefix("<6>") || $0.hasPrefix("<4>") }, "\(run)")
        // Nothing answers at 0x3c: the error that ends the run.
        let failed = try Self.standardError(["run", "--demo", "--i2c-bus", "1"], devices: "1:0x3d", journal: true)
            .text
        let failedLines = failed.split(separator: "\n")
        #expect(
            failedLines.last?.hasPrefix("<3>crownpager: could not write to 0x3c on /dev/i2c-1: Remote I/O error")
                == true,
            "\(failed)")
        #expect(failedLines.filter { $0.hasPrefix("<3>") }.count == 1, "\(failed)")
    }

    @Test func linesArePlainWhenStandardErrorIsNotTheJournal() throws {
        let run = try Self.standardError(["run", "--demo", "--i2c-bus", "1"], devices: "1:0x3c", journal: false).text
        #expect(run.contains("crownpager: no knob (could not open /dev/gpiochip0"), "\(run)")
        #expect(run.split(separator: "\n").allSatisfy { $0.hasPrefix("crownpager: ") }, "\(run)")
    }
}
