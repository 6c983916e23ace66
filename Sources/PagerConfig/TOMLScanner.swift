/// The byte-level reader under the TOML parser: position, line, and the small lexical pieces.
struct TOMLScanner {
    let bytes: [UInt8]
    var position = 0
    var line = 1
    var lineStart = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var isAtEnd: Bool { position >= bytes.count }
    var current: UInt8? { position < bytes.count ? bytes[position] : nil }
    func peek(_ offset: Int) -> UInt8? { position + offset < bytes.count ? bytes[position + offset] : nil }

    func error(_ message: String) -> TOMLError {
        TOMLError(line: line, column: position - lineStart + 1, message: message)
    }

    func error(_ message: String, line: Int) -> TOMLError {
        TOMLError(line: line, column: 1, message: message)
    }

    mutating func advance() {
        if position < bytes.count, bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        position += 1
    }

    func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        var index = 0
        while index < count {
            guard bytes[position + index] == text.utf8Start[index] else { return false }
            index += 1
        }
        return true
    }

    /// Skips spaces and tabs.
    mutating func skipBlanks() {
        while let byte = current, byte == 0x20 || byte == 0x09 { position += 1 }
    }

    /// Skips a comment to the end of its line (not the newline); control characters in it are errors.
    mutating func skipComment() throws(TOMLError) {
        guard current == UInt8(ascii: "#") else { return }
        while let byte = current, byte != 0x0A {
            if byte == 0x0D, peek(1) == 0x0A { return }
            if (byte < 0x20 && byte != 0x09) || byte == 0x7F {
                throw error("control character \(hex(byte)) in a comment")
            }
            position += 1
        }
    }

    /// Consumes a newline (LF or CRLF); false if none is here.
    mutating func consumeNewline() -> Bool {
        if current == 0x0A {
            advance()
            return true
        }
        if current == 0x0D, peek(1) == 0x0A {
            position += 1
            advance()
            return true
        }
        return false
    }

    /// Skips blanks, comments and newlines: the whitespace allowed inside arrays.
    mutating func skipBlanksCommentsAndNewlines() throws(TOMLError) {
        while true {
            skipBlanks()
            try skipComment()
            if !consumeNewline() { return }
        }
    }

    /// Expects the end of a line: blanks, an optional comment, then a newline or the end of the file.
    mutating func expectEndOfLine(after what: String) throws(TOMLError) {
        skipBlanks()
        try skipComment()
        guard isAtEnd || consumeNewline() else {
            throw error("expected the end of the line after \(what), found \(describe(current))")
        }
    }

    /// A readable name for a byte in messages.
    func describe(_ byte: UInt8?) -> String {
        guard let byte else { return "the end of the file" }
        if byte == 0x0A || byte == 0x0D { return "the end of the line" }
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return hex(byte)
    }
}

func hex(_ byte: UInt8) -> String {
    let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]
    return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
}

func isBareKeyByte(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
        || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
}

func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
