/// I2C traces as text in the argument syntax of i2c-tools' `i2ctransfer`, one transaction a line:
///
///     # init, then a blank 128x64 frame
///     w3@0x3c 0x00 0xae 0xd5
///     w1025@0x3c 0x40 0x00=
///
/// so each line replays on real hardware with `i2ctransfer -y 1 <line>`.
///
/// Reading accepts the whole write syntax of i2ctransfer(8): descriptors
/// `[flags]w<length>[@address]` with the address reused from the line's previous message
/// when omitted, data bytes in any C base (`0x1f`, `31`, `037`), and the suffixes that fill
/// the rest of a message: `=` (repeat), `+` / `-` (count up / down, wrapping at a byte) and
/// `p` (i2ctransfer's own 8-bit pseudo-random sequence seeded with the value). A line may
/// start with `i2ctransfer`, its options and the bus number, which are skipped; `#` starts a
/// comment; blank lines are skipped; a line may hold several messages. Differences:
/// read messages (`r<length>`) are rejected, as a trace replays writes only; of the message
/// flags, `i`, `n` and `p` are accepted and ignored while `s` and `t` are rejected; addresses
/// 0x00-0x7F are all accepted (i2ctransfer wants `-a` outside 0x08-0x77).
///
/// Length limits: i2ctransfer parses a length up to 65535, and the Linux kernel refuses an
/// I2C_RDWR message longer than 8192 bytes (as of v4.10). A full 128x64 frame is one
/// 1025-byte message, which fits both.
public enum I2CTrace {
    /// The longest message the Linux i2c-dev interface accepts, in bytes.
    public static let kernelMessageLimit = 8192

    /// One transfer as i2ctransfer arguments, e.g. `w3@0x3c 0x00 0xae 0xd5`.
    ///
    /// With `compact`, a run of equal bytes ending the message is written once with `=`.
    public static func format(_ transfer: I2CTransfer, compact: Bool = false) -> String {
        var text = "w\(transfer.bytes.count)@\(transfer.address)"
        var count = transfer.bytes.count
        if compact, let last = transfer.bytes.last {
            var runStart = count - 1
            while runStart > 0 && transfer.bytes[runStart - 1] == last { runStart -= 1 }
            if count - runStart >= 3 { count = runStart + 1 }
        }
        for index in 0..<count {
            text += " " + hex(transfer.bytes[index])
        }
        if count < transfer.bytes.count { text += "=" }
        return text
    }

    /// Transfers as a trace, one line each, every line ending in a newline.
    public static func format(_ transfers: [I2CTransfer], compact: Bool = false) -> String {
        var text = ""
        for transfer in transfers { text += format(transfer, compact: compact) + "\n" }
        return text
    }

    /// The transfers a trace describes, in order.
    ///
    /// The whole trace is in memory here; `I2CTraceLine` reads a trace a line and a transfer at a time.
    public static func parse(_ text: String) throws(I2CTraceError) -> [I2CTransfer] {
        var transfers: [I2CTransfer] = []
        var lineNumber = 0
        for line in Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            var reader = I2CTraceLine(line, number: lineNumber)
            while let transfer = try reader.next() { transfers.append(transfer) }
        }
        return transfers
    }

    /// Reads `[inpst]{r|w}LENGTH[@ADDRESS]`.
    static func parseDescriptor(_ token: ArraySlice<UInt8>, line: Int, lastAddress: I2CAddress?)
        throws(I2CTraceError) -> (length: Int, address: I2CAddress)
    {
        func fail(_ problem: I2CTraceError.Problem) -> I2CTraceError {
            I2CTraceError(line: line, token: String(decoding: token, as: UTF8.self), problem: problem)
        }
        var rest = token
        while let flag = rest.first, flag != UInt8(ascii: "w"), flag != UInt8(ascii: "r") {
            switch flag {
            case UInt8(ascii: "i"), UInt8(ascii: "n"), UInt8(ascii: "p"): rest = rest.dropFirst()
            case UInt8(ascii: "s"), UInt8(ascii: "t"): throw fail(.unsupportedFlag(flag))
            default: throw fail(.missingDirection)
            }
        }
        guard let direction = rest.first else { throw fail(.missingDirection) }
        guard direction == UInt8(ascii: "w") else { throw fail(.readUnsupported) }
        rest = rest.dropFirst()
        if rest.first == UInt8(ascii: "?") { throw fail(.variableLengthWrite) }
        guard let (length, afterLength) = parseCNumber(rest), length <= 65_535 else { throw fail(.invalidLength) }
        guard let separator = afterLength.first else {
            guard let lastAddress else { throw fail(.noAddress) }
            return (length, lastAddress)
        }
        guard separator == UInt8(ascii: "@") else { throw fail(.unknownSeparator) }
        guard let (value, afterAddress) = parseCNumber(afterLength.dropFirst()), afterAddress.isEmpty,
            value <= 0x7F, let address = I2CAddress(UInt8(value))
        else { throw fail(.invalidAddress) }
        return (length, address)
    }

    /// Reads one data byte with an optional suffix and appends it, or the run it starts.
    static func appendData(_ token: ArraySlice<UInt8>, line: Int, to bytes: inout [UInt8], length: Int)
        throws(I2CTraceError)
    {
        func fail(_ problem: I2CTraceError.Problem) -> I2CTraceError {
            I2CTraceError(line: line, token: String(decoding: token, as: UTF8.self), problem: problem)
        }
        guard let (value, suffix) = parseCNumber(token), value <= 0xFF else { throw fail(.invalidDataByte) }
        var byte = UInt8(value)
        guard let mark = suffix.first else {
            bytes.append(byte)
            return
        }
        guard suffix.count == 1,
            [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "p")].contains(mark)
        else { throw fail(.invalidSuffix) }
        if mark == UInt8(ascii: "=") {
            // One fill rather than a byte at a time: `w65535@0x3c 0x40 0x00=` is 64 KiB. (An
            // array, not repeatElement: appending a generic sequence is slow in a debug build.)
            bytes.append(contentsOf: [UInt8](repeating: byte, count: max(1, length - bytes.count)))
            return
        }
        repeat {
            bytes.append(byte)
            switch mark {
            case UInt8(ascii: "+"): byte &+= 1
            case UInt8(ascii: "-"): byte &-= 1
            case UInt8(ascii: "p"):
                // i2ctransfer's generator: an 8-bit add-xor-rotate with a = 13, b = 27.
                byte = (byte ^ 27) &+ 13
                byte = (byte << 1) | (byte >> 7)
            default: break
            }
        } while bytes.count < length
    }

    /// Reads an unsigned integer the way strtoul(3) does with base 0, returning the rest;
    /// nil when no digit starts the text. Values saturate instead of overflowing.
    static func parseCNumber(_ text: ArraySlice<UInt8>) -> (Int, ArraySlice<UInt8>)? {
        var rest = text
        var radix = 10
        if rest.first == UInt8(ascii: "0") {
            let next = rest.dropFirst()
            if let x = next.first, x | 0x20 == UInt8(ascii: "x"), let digit = next.dropFirst().first,
                hexValue(digit) != nil
            {
                radix = 16
                rest = next.dropFirst()
            } else {
                radix = 8
            }
        }
        var value = 0
        var digits = 0
        while let character = rest.first, let digit = hexValue(character), digit < radix {
            value = min(value * radix + digit, 1 << 40)
            digits += 1
            rest = rest.dropFirst()
        }
        return digits == 0 ? nil : (value, rest)
    }

    private static func hexValue(_ character: UInt8) -> Int? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(character - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(character - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(character - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }

    /// A byte as i2c-tools print it, `0x0a`.
    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return byte < 0x10 ? "0x0" + digits : "0x" + digits
    }
}
