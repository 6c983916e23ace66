/// A TOML 1.0 reader for configuration files: tables, arrays of tables, dotted keys, every kind
/// of string, integers, floats, booleans, arrays and inline tables; dates and times are refused.
///
/// It records the line of every key, so a configuration error can name it; it never traps on
/// any input (nesting is limited to `maximumDepth`), and reports the first error with its line
/// and column.
package enum TOMLParser {
    /// The deepest nesting of arrays, inline tables and dotted keys accepted.
    package static let maximumDepth = 64

    /// Parses `text` into its root table.
    package static func parse(_ text: String) throws(TOMLError) -> TOMLTable {
        var scanner = TOMLScanner(text)
        let root = TOMLNode(table: 0)
        root.definition = .header
        var current = root
        while true {
            try scanner.skipBlanksCommentsAndNewlines()
            guard let byte = scanner.current else { break }
            let line = scanner.line
            if byte == UInt8(ascii: "[") {
                let isArray = scanner.peek(1) == UInt8(ascii: "[")
                scanner.position += isArray ? 2 : 1
                scanner.skipBlanks()
                let key = try readKey(&scanner)
                scanner.skipBlanks()
                guard scanner.current == UInt8(ascii: "]"), !isArray || scanner.peek(1) == UInt8(ascii: "]") else {
                    throw scanner.error(
                        "expected '\(isArray ? "]]" : "]")' to close the header [\(isArray ? "[" : "")\(join(key))")
                }
                scanner.position += isArray ? 2 : 1
                current =
                    try isArray
                    ? root.openTableArray(key, line: line, scanner: scanner)
                    : root.openTable(key, line: line, scanner: scanner)
                try scanner.expectEndOfLine(after: "the header")
                continue
            }
            try readKeyValue(&scanner, into: current, depth: 0)
            try scanner.expectEndOfLine(after: "the value")
        }
        return root.tableValue()
    }

    /// `key = value` into `table`; dotted keys create the tables on their way.
    static func readKeyValue(_ scanner: inout TOMLScanner, into table: TOMLNode, depth: Int) throws(TOMLError) {
        let line = scanner.line
        let key = try readKey(&scanner)
        scanner.skipBlanks()
        guard scanner.current == UInt8(ascii: "=") else {
            throw scanner.error("expected '=' after the key '\(join(key))', found \(scanner.describe(scanner.current))")
        }
        scanner.position += 1
        scanner.skipBlanks()
        let value = try readValue(&scanner, depth: depth + key.count)
        try table.assign(key, value: value, line: line, scanner: scanner)
    }

    /// A key: bare, quoted or literal components joined by dots.
    static func readKey(_ scanner: inout TOMLScanner) throws(TOMLError) -> [String] {
        var components: [String] = []
        while true {
            scanner.skipBlanks()
            guard let byte = scanner.current else { throw scanner.error("expected a key, found the end of the file") }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                if scanner.starts(with: "\"\"\"") || scanner.starts(with: "'''") {
                    throw scanner.error("a key cannot be a multi-line string")
                }
                components.append(try scanner.readString())
            } else {
                let start = scanner.position
                while let next = scanner.current, isBareKeyByte(next) { scanner.position += 1 }
                guard scanner.position > start else {
                    throw scanner.error(
                        "expected a key (letters, digits, _ and -, or a quoted string), found \(scanner.describe(byte))"
                    )
                }
                components.append(String(decoding: scanner.bytes[start..<scanner.position], as: UTF8.self))
            }
            guard components.count <= maximumDepth else {
                throw scanner.error("a key with more than \(maximumDepth) parts")
            }
            scanner.skipBlanks()
            guard scanner.current == UInt8(ascii: ".") else { return components }
            scanner.position += 1
        }
    }

    /// A value of any kind.
    static func readValue(_ scanner: inout TOMLScanner, depth: Int) throws(TOMLError) -> TOMLNode {
        guard depth < maximumDepth else { throw scanner.error("values nested more than \(maximumDepth) deep") }
        let line = scanner.line
        switch scanner.current {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return TOMLNode(value: .string(try scanner.readString()), line: line)
        case UInt8(ascii: "["):
            return try readArray(&scanner, depth: depth)
        case UInt8(ascii: "{"):
            return try readInlineTable(&scanner, depth: depth)
        default:
            return TOMLNode(value: try scanner.readBareValue(), line: line)
        }
    }

    private static func readArray(_ scanner: inout TOMLScanner, depth: Int) throws(TOMLError) -> TOMLNode {
        let node = TOMLNode(array: scanner.line)
        let startLine = scanner.line
        scanner.position += 1
        while true {
            try scanner.skipBlanksCommentsAndNewlines()
            guard let byte = scanner.current else {
                throw scanner.error("unterminated array opened on line \(startLine): add ']'", line: startLine)
            }
            if byte == UInt8(ascii: "]") {
                scanner.position += 1
                return node
            }
            node.elements.append(try readValue(&scanner, depth: depth + 1))
            try scanner.skipBlanksCommentsAndNewlines()
            if scanner.current == UInt8(ascii: ",") {
                scanner.position += 1
            } else if scanner.current == nil {
                throw scanner.error("unterminated array opened on line \(startLine): add ']'", line: startLine)
            } else if scanner.current != UInt8(ascii: "]") {
                throw scanner.error(
                    "expected ',' or ']' in the array opened on line \(startLine), found \(scanner.describe(scanner.current))"
                )
            }
        }
    }

    private static func readInlineTable(_ scanner: inout TOMLScanner, depth: Int) throws(TOMLError) -> TOMLNode {
        let node = TOMLNode(table: scanner.line)
        node.definition = .header
        scanner.position += 1
        scanner.skipBlanks()
        if scanner.current == UInt8(ascii: "}") {
            scanner.position += 1
            node.isSealed = true
            return node
        }
        while true {
            scanner.skipBlanks()
            try readKeyValue(&scanner, into: node, depth: depth + 1)
            scanner.skipBlanks()
            if scanner.current == UInt8(ascii: "}") {
                scanner.position += 1
                node.isSealed = true
                return node
            }
            guard scanner.current == UInt8(ascii: ",") else {
                throw scanner.error(
                    "expected ',' or '}' in the inline table (an inline table must stay on one line), found \(scanner.describe(scanner.current))"
                )
            }
            scanner.position += 1
            scanner.skipBlanks()
            if scanner.current == UInt8(ascii: "}") { throw scanner.error("an inline table takes no comma before '}'") }
            if scanner.current == nil || scanner.current == 0x0A || scanner.current == 0x0D
                || scanner.current == UInt8(ascii: "#")
            {
                throw scanner.error(
                    "an inline table must stay on one line: close it with '}' on this line, or use a [table]")
            }
        }
    }
}

func join(_ key: [String]) -> String {
    var text = ""
    for (index, component) in key.enumerated() {
        if index > 0 { text += "." }
        let bare = !component.isEmpty && component.utf8.allSatisfy(isBareKeyByte)
        text += bare ? component : "\"" + component + "\""
    }
    return text
}
