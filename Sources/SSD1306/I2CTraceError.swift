/// Why a line of an I2C trace could not be read: where, which argument, and what was expected.
public struct I2CTraceError: Error, Hashable, Sendable {
    /// The line, counting from 1.
    public let line: Int
    /// The argument at fault, as written.
    public let token: String
    /// What was wrong with it.
    public let problem: Problem

    /// An error at `line`, for comparing in tests.
    public init(line: Int, token: String, problem: Problem) {
        self.line = line
        self.token = token
        self.problem = problem
    }

    /// What was wrong with an argument.
    public enum Problem: Hashable, Sendable {
        /// A message descriptor without its direction letter `w`.
        case missingDirection
        /// A read message (`r<length>`); a trace replays writes only.
        case readUnsupported
        /// A message flag this reader cannot honour (`s` skips the start, `t` turns the write into a read).
        case unsupportedFlag(UInt8)
        /// `w?`: only reads may take their length from the device.
        case variableLengthWrite
        /// A length that is not a number from 0 to 65535.
        case invalidLength
        /// Something other than `@` after the length.
        case unknownSeparator
        /// An address that is not a number from 0x00 to 0x7f.
        case invalidAddress
        /// A message without `@address` and no earlier one on the line to reuse.
        case noAddress
        /// A data byte that is not a number from 0 to 255.
        case invalidDataByte
        /// Text after a data byte other than one of `=`, `+`, `-`, `p`.
        case invalidSuffix
        /// The line ended before the message's data did.
        case incompleteMessage(expected: Int, found: Int)
        /// `i2ctransfer` with no bus argument after its options.
        case missingBus
        /// An SPI trace's line that does not start with `cmd` or `data`.
        case unknownRecord
    }
}

extension I2CTraceError: CustomStringConvertible {
    /// A sentence for the operator, e.g. `line 3, 'w3@0x3c': expected 3 data bytes, found 2`.
    public var description: String {
        "line \(line), '\(token)': " + explanation
    }

    private var explanation: String {
        switch problem {
        case .missingDirection: return "expected a message like w3@0x3c (flags i, n, p, then w, length, @address)"
        case .readUnsupported: return "read messages are not supported in a trace; only writes (w) replay"
        case .unsupportedFlag(let flag):
            return
                "message flag '\(String(decoding: [flag], as: UTF8.self))' is not supported; only i, n and p are accepted"
        case .variableLengthWrite: return "a write needs a length from 0 to 65535, '?' is for reads"
        case .invalidLength: return "expected a length from 0 to 65535 after w"
        case .unknownSeparator: return "expected '@' and an address after the length"
        case .invalidAddress: return "expected a 7-bit address from 0x00 to 0x7f after '@'"
        case .noAddress: return "expected '@address': no earlier message on this line gives one"
        case .invalidDataByte: return "expected a data byte from 0 to 255 (decimal, 0x hex or 0 octal)"
        case .invalidSuffix: return "expected at most one suffix after a data byte: =, +, - or p"
        case .incompleteMessage(let expected, let found):
            return "expected \(expected) data bytes, found \(found) before the end of the line"
        case .missingBus: return "expected a bus number after i2ctransfer and its options"
        case .unknownRecord:
            return "expected cmd (commands) or data (display data) and bytes, as an SPI trace's lines are"
        }
    }
}
