// Fuzz target: kernel input events (`struct input_event`, 24 bytes each on 64-bit Linux), translated
// to crown facts for any axis and key configuration, then driven through a pager.
import CrownInput
import CrownVocabulary

/// A little-endian integer of `width` bytes at `offset`.
private func number(_ bytes: ArraySlice<UInt8>, _ offset: Int, _ width: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in (0..<width).reversed() { value = value << 8 | UInt64(bytes[bytes.startIndex + offset + index]) }
    return value
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInputEvents(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(data, count)
    guard bytes.count >= 4 else { return 0 }
    // The first four bytes choose the configuration, the rest are records.
    let axis = UInt16(bytes[0] & 0x0F)
    let steps = bytes[1] & 0x80 != 0 ? Int(Int8(bitPattern: bytes[1] << 1)) * 1000 : nil
    let configuration = InputEventConfiguration(
        axis: axis, keys: [UInt16(bytes[2])], inverted: bytes[3] & 1 != 0, absoluteSteps: steps)
    var records: [InputEventRecord] = []
    var rest = bytes.dropFirst(4)
    while rest.count >= 24 {
        let seconds = Int64(bitPattern: number(rest, 0, 8))
        let microseconds = Int64(bitPattern: number(rest, 8, 8))
        records.append(
            InputEventRecord(
                timestamp: Timestamp(nanoseconds: seconds &* 1_000_000_000 &+ microseconds &* 1000),
                type: UInt16(number(rest, 16, 2)), code: UInt16(number(rest, 18, 2)),
                value: Int32(bitPattern: UInt32(number(rest, 20, 4)))))
        rest = rest.dropFirst(24)
    }
    var translator = InputEventTranslator(configuration: configuration)
    let events = translator.translate(records)
    // `crownpager doctor crown` shows the same facts as figures.
    var monitor = KnobMonitor()
    for event in events {
        monitor.record(event)
        _ = monitor.describe(event)
        _ = monitor.summary(at: event.timestamp)
    }
    drivePager(with: events, wraps: bytes[3] & 2 != 0)
    return 0
}
