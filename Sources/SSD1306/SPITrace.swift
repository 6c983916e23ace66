/// SPI display traces as text, one record a line: `cmd` (D/C# low) or `data` (D/C# high), then
/// its bytes:
///
///     # init, then the first page's bytes
///     cmd 0xae 0xd5 0x80
///     data 0x00 0xff 0x81
///
/// An SPI panel has no address and no control byte, so its trace holds what the wire carries
/// and the level of D/C# beside it. Bytes may be written in any C base (`0x1f`, `31`, `037`);
/// `#` starts a comment; blank lines are skipped.
package enum SPITrace {
    /// One record as a line without its newline, e.g. `cmd 0xae 0xd5 0x80`.
    package static func format(_ record: DisplayBatch.Record) -> String {
        var text = record.kind == .commands ? "cmd" : "data"
        for byte in record.bytes { text += " " + I2CTrace.hex(byte) }
        return text
    }

    /// Records as a trace, one line each, every line ending in a newline.
    package static func format(_ batch: DisplayBatch) -> String {
        var text = ""
        for record in batch { text += format(record) + "\n" }
        return text
    }

    /// Whether `text` is an SPI trace: its first line that holds a record starts with `cmd` or
    /// `data` (an I2C trace's starts with a message such as `w3@0x3c`, or `i2ctransfer`).
    package static func isSPITrace(_ text: String) -> Bool {
        for line in Array(text.utf8).split(separator: 0x0A) {
            if let spi = startsSPIRecord(line) { return spi }
        }
        return false
    }

    /// Whether `line` holds an SPI record (starts with `cmd` or `data`); nil for a line with no
    /// record (blank, or only a comment), which says nothing of the trace's kind.
    package static func startsSPIRecord(_ line: ArraySlice<UInt8>) -> Bool? {
        tokens(of: line).first.map { kind(of: $0) != nil }
    }

    /// The records a trace describes, in order.
    package static func parse(_ text: String) throws(I2CTraceError) -> DisplayBatch {
        var batch = DisplayBatch()
        var lineNumber = 0
        for line in Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            guard let record = try record(in: line, number: lineNumber) else { continue }
            batch.append(record.bytes, as: record.kind)
        }
        return batch
    }

    /// The record on `line` (numbered `number` for errors); nil for a blank line or a comment.
    package static func record(in line: ArraySlice<UInt8>, number: Int) throws(I2CTraceError)
        -> (kind: DisplayRecordKind, bytes: [UInt8])?
    {
        let tokens = tokens(of: line)
        guard let first = tokens.first else { return nil }
        guard let kind = kind(of: first) else {
            throw I2CTraceError(line: number, token: String(decoding: first, as: UTF8.self), problem: .unknownRecord)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(tokens.count - 1)
        for token in tokens.dropFirst() {
            guard let (value, rest) = I2CTrace.parseCNumber(token), rest.isEmpty, value <= 0xFF else {
                throw I2CTraceError(
                    line: number, token: String(decoding: token, as: UTF8.self), problem: .invalidDataByte)
            }
            bytes.append(UInt8(value))
        }
        return (kind, bytes)
    }

    /// A line's tokens, its comment left out.
    private static func tokens(of line: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var content = line
        if let hash = content.firstIndex(of: UInt8(ascii: "#")) { content = content[..<hash] }
        return content.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D })
    }

    /// The kind a line's first token names; nil when it names none.
    private static func kind(of token: ArraySlice<UInt8>) -> DisplayRecordKind? {
        if token.elementsEqual("cmd".utf8) { return .commands }
        if token.elementsEqual("data".utf8) { return .data }
        return nil
    }
}
