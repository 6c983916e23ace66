/// TOML's four kinds of string: basic `"..."`, multi-line basic `"""..."""`, literal `'...'`
/// and multi-line literal `'''...'''`.
extension TOMLScanner {
    /// Reads a string starting at a quote.
    mutating func readString() throws(TOMLError) -> String {
        if starts(with: "\"\"\"") { return try readMultilineString(literal: false) }
        if starts(with: "'''") { return try readMultilineString(literal: true) }
        return try readSingleLineString(literal: current == UInt8(ascii: "'"))
    }

    private mutating func readSingleLineString(literal: Bool) throws(TOMLError) -> String {
        let quote = literal ? UInt8(ascii: "'") : UInt8(ascii: "\"")
        position += 1
        var out: [UInt8] = []
        while true {
            guard let byte = current, byte != 0x0A, !(byte == 0x0D && peek(1) == 0x0A) else {
                throw error("unterminated string: add the closing \(literal ? "'" : "\"") before the end of the line")
            }
            if byte == quote {
                position += 1
                return try decodeUTF8(out)
            }
            if !literal, byte == UInt8(ascii: "\\") {
                try readEscape(into: &out)
                continue
            }
            try checkStringByte(byte)
            out.append(byte)
            position += 1
        }
    }

    private mutating func readMultilineString(literal: Bool) throws(TOMLError) -> String {
        let quote = literal ? UInt8(ascii: "'") : UInt8(ascii: "\"")
        let startLine = line
        position += 3
        // A newline right after the opening delimiter is trimmed.
        _ = consumeNewline()
        var out: [UInt8] = []
        while true {
            guard let byte = current else {
                throw error("unterminated multi-line string opened on line \(startLine)", line: startLine)
            }
            if byte == quote, peek(1) == quote, peek(2) == quote {
                // Up to two more quotes right before the closing three belong to the string.
                var run = 3
                while run < 5, peek(run) == quote { run += 1 }
                out += [UInt8](repeating: quote, count: run - 3)
                position += run
                return try decodeUTF8(out)
            }
            if consumeNewline() {
                out.append(0x0A)
                continue
            }
            if !literal, byte == UInt8(ascii: "\\") {
                if try skipLineEndingBackslash() { continue }
                try readEscape(into: &out)
                continue
            }
            try checkStringByte(byte)
            out.append(byte)
            position += 1
        }
    }

    /// A backslash that ends a line trims it and all whitespace and newlines after it.
    private mutating func skipLineEndingBackslash() throws(TOMLError) -> Bool {
        var probe = position + 1
        while probe < bytes.count, bytes[probe] == 0x20 || bytes[probe] == 0x09 { probe += 1 }
        guard probe < bytes.count,
            bytes[probe] == 0x0A || (bytes[probe] == 0x0D && probe + 1 < bytes.count && bytes[probe + 1] == 0x0A)
        else { return false }
        position = probe
        while true {
            skipBlanks()
            if !consumeNewline() { return true }
        }
    }

    private func checkStringByte(_ byte: UInt8) throws(TOMLError) {
        if (byte < 0x20 && byte != 0x09) || byte == 0x7F {
            throw error("control character \(hex(byte)) in a string: write it as an escape such as \\u0001")
        }
    }

    private mutating func readEscape(into out: inout [UInt8]) throws(TOMLError) {
        position += 1
        guard let byte = current else { throw error("unterminated escape at the end of the file") }
        position += 1
        switch byte {
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case UInt8(ascii: "u"): out += try readUnicodeEscape(digits: 4)
        case UInt8(ascii: "U"): out += try readUnicodeEscape(digits: 8)
        default:
            position -= 1
            throw error(
                "unknown escape '\\\(describe(byte).filter { $0 != "'" })': use \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX or \\UXXXXXXXX"
            )
        }
    }

    private mutating func readUnicodeEscape(digits: Int) throws(TOMLError) -> [UInt8] {
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let byte = current, let digit = hexDigit(byte) else {
                throw error("\\\(digits == 4 ? "u" : "U") needs \(digits) hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw error("\\\(digits == 4 ? "u" : "U") escape \(value) is not a Unicode scalar value")
        }
        return Array(String(Character(scalar)).utf8)
    }

    private func decodeUTF8(_ bytes: [UInt8]) throws(TOMLError) -> String {
        var scalars = String.UnicodeScalarView()
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .emptyInput: return String(scalars)
            case .error: throw error("a string holds bytes that are not UTF-8: save the file as UTF-8")
            }
        }
    }
}

func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: return byte - 0x30
    case 0x41...0x46: return byte - 0x41 + 10
    case 0x61...0x66: return byte - 0x61 + 10
    default: return nil
    }
}
