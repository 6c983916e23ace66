import CLinuxInput
import CrownInput
import CrownVocabulary
import Foundation
import Glibc
import LinuxSystem
import TestSupport
import Testing

/// The evdev reader, fed through a FIFO the test creates: the kernel's byte layout, no kernel needed.
@Suite struct InputEventDeviceTests {
    typealias Code = InputEventCode

    /// A FIFO with the device reading it and a non-blocking writer, in a scratch folder.
    final class Pipe {
        let scratch: ScratchDirectory
        let path: String
        let device: InputEventDevice
        var writer: Int32

        init() throws {
            scratch = try ScratchDirectory()
            path = scratch.path + "/event0"
            guard mkfifo(path, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            device = try InputEventDevice(path: path)
            // The reader is open, so a non-blocking open for writing succeeds at once.
            writer = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        }

        func write(_ bytes: [UInt8]) {
            let written = bytes.withUnsafeBytes { Glibc.write(writer, $0.baseAddress, $0.count) }
            #expect(written == bytes.count)
        }

        func closeWriter() {
            Glibc.close(writer)
            writer = -1
        }

        deinit { if writer >= 0 { Glibc.close(writer) } }
    }

    func record(_ nanoseconds: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEventRecord {
        InputEventRecord(timestamp: Timestamp(nanoseconds: nanoseconds), type: type, code: code, value: value)
    }

    @Test func recordsComeBackWithTheirMicrosecondTimestamps() throws {
        let pipe = try Pipe()
        #expect(pipe.writer >= 0)
        #expect(!pipe.device.usesMonotonicClock, "a FIFO is no input device: EVIOCSCLOCKID fails")
        #expect(pipe.device.name == nil)
        let sent = [
            record(12_345_678_901_000, Code.EV_REL, Code.REL_X, 1),
            record(12_345_678_901_000, Code.EV_SYN, Code.SYN_REPORT, 0),
            record(12_346_000_000_000, Code.EV_KEY, Code.KEY_ENTER, 1),
            record(12_346_000_000_000, Code.EV_SYN, Code.SYN_REPORT, 0),
        ]
        let bytes = InputEventDevice.bytes(of: sent)
        #expect(bytes.count == sent.count * MemoryLayout<input_event>.size)
        pipe.write(bytes)
        let received = try pipe.device.read(timeoutMilliseconds: 2000)
        #expect(received == sent)
        var translator = InputEventTranslator()
        #expect(
            translator.translate(received) == [
                .rotated(detents: 1, at: Timestamp(nanoseconds: 12_345_678_901_000)),
                .pressed(at: Timestamp(nanoseconds: 12_346_000_000_000)),
            ])
    }

    @Test func aRecordSplitAcrossWritesIsAssembled() throws {
        let pipe = try Pipe()
        let bytes = InputEventDevice.bytes(of: [record(5_000, Code.EV_REL, Code.REL_X, -1)])
        pipe.write(Array(bytes.prefix(7)))
        #expect(try pipe.device.read(timeoutMilliseconds: 2000) == [])
        pipe.write(Array(bytes.dropFirst(7)))
        #expect(try pipe.device.read(timeoutMilliseconds: 2000) == [record(5_000, Code.EV_REL, Code.REL_X, -1)])
    }

    @Test func aTimeoutReturnsNothing() throws {
        let pipe = try Pipe()
        #expect(try pipe.device.read(timeoutMilliseconds: 0) == [])
    }

    @Test func theWriterClosingIsADisconnection() throws {
        let pipe = try Pipe()
        pipe.closeWriter()
        #expect(throws: InputEventError.disconnected(path: pipe.path)) {
            try pipe.device.read(timeoutMilliseconds: 2000)
        }
        let error = InputEventError.disconnected(path: pipe.path)
        #expect(error.description.contains(pipe.path))
    }

    @Test func aMissingDeviceNamesThePathAndTheOverlays() {
        #expect(throws: InputEventError.notFound(path: "/dev/input/event99")) {
            try InputEventDevice(path: "/dev/input/event99")
        }
        let text = InputEventError.notFound(path: "/dev/input/event99").description
        #expect(
            text.contains("/dev/input/event99") && text.contains("dtoverlay=rotary-encoder")
                && text.contains("/proc/bus/input/devices"))
    }

    @Test func permissionDeniedNamesTheInputGroup() throws {
        // Root reads any file, except sysfs files without a read method, which refuse everyone.
        let scratch = try ScratchDirectory()
        let path = geteuid() == 0 ? "/sys/bus/platform/uevent" : scratch.path + "/locked"
        if geteuid() != 0 {
            _ = FileManager.default.createFile(atPath: path, contents: Data(), attributes: [.posixPermissions: 0])
        }
        #expect(throws: InputEventError.permissionDenied(path: path)) { try InputEventDevice(path: path) }
        let text = InputEventError.permissionDenied(path: path).description
        #expect(text.contains(path) && text.contains("`input` group") && text.contains("udev"))
    }

    @Test func theRecordSizeIsTheKernels() {
        #expect(InputEventDevice.recordSize == MemoryLayout<input_event>.size)
        // 64-bit: a 16-byte timeval, then type, code (2 bytes each) and value (4).
        if MemoryLayout<Int>.size == 8 { #expect(InputEventDevice.recordSize == 24) }
    }
}
