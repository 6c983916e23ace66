import CrownInput
import Foundation
import Glibc
import LinuxSystem
import PagerCore
import TestSupport
import Testing

/// `crownpager doctor crown --evdev <fifo>`, run as a user would, fed by this test through a FIFO.
@Suite(.tags(.endToEnd)) struct DoctorCrownTests {
    func record(_ ms: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEventRecord {
        InputEventRecord(timestamp: .milliseconds(ms), type: type, code: code, value: value)
    }

    /// Opens the FIFO for writing once the program has opened it for reading (bounded wait), writes, closes.
    func feed(_ path: String, _ bytes: [UInt8]) {
        Thread.detachNewThread {
            var descriptor: Int32 = -1
            // ENXIO until a reader has the FIFO open.
            let opened = waitUntil(seconds: 20, every: 0.01) {
                descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
                return descriptor >= 0
            }
            guard opened else { return }
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }
    }

    @Test func showsEachFactWithTheFiguresSoFar() throws {
        let scratch = try ScratchDirectory()
        let fifo = scratch.path + "/event0"
        #expect(mkfifo(fifo, 0o600) == 0)
        let ev = InputEventCode.self
        feed(
            fifo,
            InputEventDevice.bytes(of: [
                record(1000, ev.EV_REL, ev.REL_X, 1), record(1000, ev.EV_SYN, ev.SYN_REPORT, 0),
                record(1250, ev.EV_REL, ev.REL_X, 1), record(1250, ev.EV_SYN, ev.SYN_REPORT, 0),
                record(1500, ev.EV_KEY, ev.KEY_ENTER, 1), record(1500, ev.EV_SYN, ev.SYN_REPORT, 0),
                record(1620, ev.EV_KEY, ev.KEY_ENTER, 0), record(1620, ev.EV_SYN, ev.SYN_REPORT, 0),
                record(1700, ev.EV_REL, ev.REL_X, -1), record(1700, ev.EV_SYN, ev.SYN_REPORT, 0),
            ]))
        let run = try runCrownPager(["doctor", "crown", "--evdev", fifo, "--count", "5", "--duration", "30"])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("watching \(fifo)") == true)
        try #require(lines.count == 7, "\(run.standardOutput)")
        #expect(lines[1].hasPrefix("0.000s  +1 detent clockwise  | detents +1 (cw 1, ccw 0)"))
        #expect(lines[2].hasPrefix("0.250s  +1 detent clockwise  | detents +2"))
        #expect(lines[3].contains("pressed") && lines[3].contains("presses 1 (down)"))
        #expect(lines[4].contains("released after 120 ms"))
        #expect(
            lines[5].hasPrefix(
                "0.700s  -1 detent counterclockwise  | detents +1 (cw 2, ccw 1) \u{B7} last counterclockwise \u{B7} 3.0/s"
            ))
        #expect(lines[6].hasPrefix("final: detents +1"))
    }

    @Test func theWriterGoingAwayEndsWithAnExplanation() throws {
        let scratch = try ScratchDirectory()
        let fifo = scratch.path + "/event1"
        #expect(mkfifo(fifo, 0o600) == 0)
        feed(
            fifo,
            InputEventDevice.bytes(of: [
                record(5, InputEventCode.EV_REL, InputEventCode.REL_X, 1),
                record(5, InputEventCode.EV_SYN, InputEventCode.SYN_REPORT, 0),
            ]))
        let run = try runCrownPager(["doctor", "crown", "--evdev", fifo, "--count", "5", "--duration", "30"])
        #expect(run.status == 74)  // EX_IOERR: the device went away midway
        #expect(run.standardOutput.contains("+1 detent clockwise"))
        #expect(run.standardError.contains("\(fifo) went away"))
    }

    @Test(arguments: [
        (["doctor", "crown"], "say where the crown is: --evdev"),
        (["doctor", "crown", "--evdev", "/nonexistent/event7"], "/nonexistent/event7 does not exist"),
        (["doctor", "crown", "--evdev", "/dev/null", "--axis", "sideways"], "--axis must be"),
        (["doctor", "crown", "--evdev", "/dev/null", "--count", "0"], "--count must be at least 1"),
        (["doctor", "crown", "--keyboard"], "standard input is not a terminal"),
    ])
    func badInputIsExplained(arguments: [String], message: String) throws {
        let run = try runCrownPager(arguments)
        #expect(run.status != 0)
        #expect(run.standardError.contains(message), "\(run.standardError)")
    }
}
