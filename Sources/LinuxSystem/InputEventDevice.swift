import CLinuxInput
import CrownInput
import CrownVocabulary
import Glibc

/// A kernel input device, `/dev/input/eventN`, read as `InputEventRecord`s with monotonic timestamps.
///
/// The kernel's `rotary-encoder` and `gpio-keys` drivers decode the knob and debounce the
/// button themselves; this reader only moves their `struct input_event` records into Swift.
/// Any file that yields records works the same way, which is how the tests feed a FIFO.
package final class InputEventDevice {
    /// The path opened.
    package let path: String
    /// The device's name (`EVIOCGNAME`), e.g. the overlay's label; nil when the file is no input device.
    package let name: String?
    /// True when the kernel agreed to stamp events with CLOCK_MONOTONIC, the clock `MonotonicClock` reads.
    package let usesMonotonicClock: Bool
    private let descriptor: FileDescriptor
    /// The open descriptor, for a poll(2) beside others; readable when records are waiting.
    package var pollDescriptor: Int32 { descriptor.rawValue }
    private var partial: [UInt8] = []
    private var isClosed = false

    /// The size of one record on this machine (24 bytes on 64-bit Linux, 16 on 32-bit with 32-bit time).
    package static let recordSize = MemoryLayout<input_event>.size

    /// Opens `path` for reading, without blocking, and asks for monotonic timestamps.
    package init(path: String) throws(InputEventError) {
        self.path = path
        do {
            descriptor = try FileDescriptor.open(path, .readOnly, options: [.nonBlocking, .closeOnExec])
        } catch {
            switch error {
            case .noSuchFileOrDirectory, .noSuchAddressOrDevice, .operationNotSupportedByDevice:
                throw .notFound(path: path)
            case .permissionDenied, .notPermitted: throw .permissionDenied(path: path)
            default: throw .system(operation: "open", path: path, errno: error)
            }
        }
        // The kernel stamps events with CLOCK_REALTIME unless asked (EVIOCSCLOCKID); a FIFO
        // or a file answers ENOTTY and keeps whatever times were written into it.
        var clock = crownpager_clock_monotonic
        usesMonotonicClock = ioctl(descriptor.rawValue, crownpager_eviocsclockid(), &clock) == 0
        var buffer = [CChar](repeating: 0, count: 256)
        let length = ioctl(descriptor.rawValue, crownpager_eviocgname(UInt32(buffer.count - 1)), &buffer)
        name =
            length > 0
            ? String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }

    deinit { close() }

    /// Closes the device; reading afterwards reports it disconnected.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = try? descriptor.close()
    }

    /// Waits up to `timeoutMilliseconds` (negative: forever) for records and returns those that arrived; [] on timeout.
    package func read(timeoutMilliseconds: Int) throws(InputEventError) -> [InputEventRecord] {
        guard !isClosed else { throw .disconnected(path: path) }
        var events: Int16 = 0
        do {
            guard try descriptor.waitUntilReadable(timeoutMilliseconds: timeoutMilliseconds, events: &events) else {
                return []
            }
        } catch {
            throw .system(operation: "poll", path: path, errno: error)
        }
        var buffer = [UInt8](repeating: 0, count: Self.recordSize * 64)
        let count: Int
        do {
            count = try buffer.withUnsafeMutableBytes { try descriptor.read(into: $0, retryOnInterrupt: true) }
        } catch {
            let errno = (error as? Errno) ?? .ioError
            if errno == .resourceTemporarilyUnavailable { return [] }
            if errno == .operationNotSupportedByDevice { throw .disconnected(path: path) }
            throw .system(operation: "read", path: path, errno: errno)
        }
        guard count > 0 else { throw .disconnected(path: path) }
        partial += buffer[..<count]
        return takeRecords()
    }

    /// Whole records from the bytes read so far; a FIFO may deliver a record in pieces, the kernel never does.
    private func takeRecords() -> [InputEventRecord] {
        let whole = partial.count / Self.recordSize
        guard whole > 0 else { return [] }
        var records: [InputEventRecord] = []
        records.reserveCapacity(whole)
        partial.withUnsafeBytes { bytes in
            for index in 0..<whole {
                var event = bytes.loadUnaligned(fromByteOffset: index * Self.recordSize, as: input_event.self)
                records.append(Self.record(of: &event))
            }
        }
        partial.removeFirst(whole * Self.recordSize)
        return records
    }

    /// The record for a kernel event: its time in nanoseconds, its type, code and value.
    static func record(of event: inout input_event) -> InputEventRecord {
        let seconds = Int64(crownpager_input_event_seconds(&event))
        let microseconds = Int64(crownpager_input_event_microseconds(&event))
        return InputEventRecord(
            timestamp: Timestamp(nanoseconds: seconds &* 1_000_000_000 &+ microseconds &* 1000),
            type: event.type, code: event.code, value: event.value)
    }

    /// `records` laid out as the kernel writes them, for feeding a FIFO or a file in tests.
    package static func bytes(of records: [InputEventRecord]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.count * recordSize)
        for record in records {
            let nanoseconds = record.timestamp.nanoseconds
            var event = crownpager_input_event(
                nanoseconds / 1_000_000_000, (nanoseconds % 1_000_000_000) / 1000, record.type, record.code,
                record.value)
            withUnsafeBytes(of: &event) { bytes += $0 }
        }
        return bytes
    }
}
