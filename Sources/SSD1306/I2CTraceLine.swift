/// One line of an I2C trace (`I2CTrace`'s syntax), read a transfer at a time.
///
/// A line may hold several messages of up to 65535 bytes each, and `=`, `+`, `-` and `p` make a
/// few characters into a whole message, so a reader that expanded a whole line, or a whole trace,
/// could need gigabytes for a file of kilobytes. Reading one transfer at a time keeps what is in
/// memory to the line's text and one message.
public struct I2CTraceLine {
    /// The line's number in its trace, counting from 1, for errors.
    public let number: Int
    /// The line without its comment.
    private let text: ArraySlice<UInt8>
    /// Where the next argument starts its search.
    private var position: Int
    /// The address of the line's previous message, which a message without `@address` reuses.
    private var lastAddress: I2CAddress?
    /// Whether the `i2ctransfer` command, its options and its bus have been skipped.
    private var skippedCommand = false

    /// The line `bytes` (without its newline), numbered `number`.
    public init(_ bytes: ArraySlice<UInt8>, number: Int) {
        self.number = number
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) {
            text = bytes[..<hash]
        } else {
            text = bytes
        }
        position = text.startIndex
    }

    /// The line's next transfer, nil after its last; throws at the first argument that is wrong,
    /// so the transfers before it on the line have been returned.
    public mutating func next() throws(I2CTraceError) -> I2CTransfer? {
        if !skippedCommand {
            skippedCommand = true
            try skipCommand()
        }
        guard let descriptor = nextArgument() else { return nil }
        let (length, address) = try I2CTrace.parseDescriptor(descriptor, line: number, lastAddress: lastAddress)
        lastAddress = address
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        while bytes.count < length {
            guard let argument = nextArgument() else {
                throw I2CTraceError(
                    line: number, token: String(decoding: descriptor, as: UTF8.self),
                    problem: .incompleteMessage(expected: length, found: bytes.count))
            }
            try I2CTrace.appendData(argument, line: number, to: &bytes, length: length)
        }
        return I2CTransfer(address: address, bytes: bytes)
    }

    /// Skips `i2ctransfer`, its options and its bus number when the line starts with them.
    private mutating func skipCommand() throws(I2CTraceError) {
        let start = position
        guard let first = nextArgument(), first.elementsEqual("i2ctransfer".utf8) else {
            position = start
            return
        }
        while let argument = nextArgument() {
            // The options start with '-'; the bus number or name follows them.
            if argument.first != UInt8(ascii: "-") { return }
        }
        throw I2CTraceError(line: number, token: "i2ctransfer", problem: .missingBus)
    }

    /// The next argument: a run of bytes between spaces, tabs and carriage returns.
    private mutating func nextArgument() -> ArraySlice<UInt8>? {
        let end = text.endIndex
        while position < end, Self.isSeparator(text[position]) { position += 1 }
        guard position < end else { return nil }
        let start = position
        while position < end, !Self.isSeparator(text[position]) { position += 1 }
        return text[start..<position]
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D
    }
}
