/// A TOML value as the parser read it, with the line each key was written on.
///
/// Dates and times are not among the cases: a configuration has no use for them, and the
/// parser rejects them with a message that says so rather than reading them as something else.
package enum TOMLValue: Equatable {
    /// A basic or literal string, single- or multi-line, escapes already applied.
    case string(String)
    /// A 64-bit integer (decimal, hexadecimal, octal or binary in the file).
    case integer(Int64)
    /// A 64-bit float, including `inf` and `nan`.
    case float(Double)
    /// `true` or `false`.
    case boolean(Bool)
    /// An array; TOML 1.0 allows mixed types.
    case array([TOMLValue])
    /// A table: a `[header]`, an element of `[[header]]`, an inline table or a dotted-key parent.
    case table(TOMLTable)

    /// The kind of value, for messages: "a string", "an integer"...
    package var kindDescription: String {
        switch self {
        case .string: return "a string"
        case .integer: return "an integer"
        case .float: return "a float"
        case .boolean: return "a boolean"
        case .array: return "an array"
        case .table: return "a table"
        }
    }
}

/// An ordered table of keys, each with its value and the line it was defined on.
package struct TOMLTable: Equatable {
    /// One key of a table.
    package struct Entry: Equatable {
        /// The key (one component: dotted keys become nested tables).
        package var key: String
        /// Its value.
        package var value: TOMLValue
        /// The 1-based line the key was written on (for a table opened by a header, the header's line).
        package var line: Int
    }

    /// The keys in the order they first appeared.
    package internal(set) var entries: [Entry]
    /// The line the table was opened on: its header, its inline brace, or its first dotted key; 0 for the root.
    package internal(set) var line: Int

    /// An empty table opened on `line`.
    package init(line: Int = 0, entries: [Entry] = []) {
        self.line = line
        self.entries = entries
    }

    /// The entry for `key`, if present.
    package subscript(key: String) -> Entry? {
        entries.first { $0.key == key }
    }

    /// The keys in order.
    package var keys: [String] { entries.map { $0.key } }
}
