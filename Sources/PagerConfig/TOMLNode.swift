/// The parser's mutable tree, which knows how each table came to be so that TOML's rules on
/// defining a table twice can be enforced; frozen into `TOMLTable` at the end.
final class TOMLNode {
    enum Kind {
        case value(TOMLValue)
        case table, array, tableArray
    }
    /// How a table was made: implicitly on the way to another, by a `[header]` (or inline), or by a dotted key.
    enum Definition { case implicit, header, dotted }

    var kind: Kind
    var line: Int
    var keys: [String] = []
    var children: [String: (node: TOMLNode, line: Int)] = [:]
    var elements: [TOMLNode] = []
    var definition = Definition.implicit
    /// Inline tables and static arrays cannot be extended afterwards.
    var isSealed = false

    init(value: TOMLValue, line: Int) {
        kind = .value(value)
        self.line = line
    }

    init(table line: Int) {
        kind = .table
        self.line = line
    }

    init(array line: Int) {
        kind = .array
        self.line = line
        isSealed = true
    }

    var isTable: Bool { if case .table = kind { return true } else { return false } }

    func child(_ key: String) -> TOMLNode? { children[key]?.node }

    func add(_ key: String, _ node: TOMLNode, line: Int) {
        keys.append(key)
        children[key] = (node, line)
    }

    /// Walks to the table that `key`'s parent names for a header, creating implicit tables.
    private func walk(_ key: [String], line: Int, scanner: TOMLScanner) throws(TOMLError) -> TOMLNode {
        var node = self
        for (index, component) in key.dropLast().enumerated() {
            let path = join(Array(key[...index]))
            if let existing = node.child(component) {
                switch existing.kind {
                case .table:
                    guard !existing.isSealed else {
                        throw scanner.error("[\(path)] is an inline table and cannot be extended", line: line)
                    }
                    node = existing
                case .tableArray:
                    guard let last = existing.elements.last else { throw scanner.error("\(path) is empty", line: line) }
                    node = last
                case .value, .array:
                    throw scanner.error(
                        "'\(path)' is already a value (line \(node.children[component]?.line ?? 0)), not a table",
                        line: line)
                }
            } else {
                let table = TOMLNode(table: line)
                node.add(component, table, line: line)
                node = table
            }
        }
        return node
    }

    /// `[key]`: a table defined once.
    func openTable(_ key: [String], line: Int, scanner: TOMLScanner) throws(TOMLError) -> TOMLNode {
        let parent = try walk(key, line: line, scanner: scanner)
        guard let last = key.last else { throw scanner.error("empty header", line: line) }
        if let existing = parent.child(last) {
            let previous = parent.children[last]?.line ?? 0
            if case .value = existing.kind {
                throw scanner.error("'\(join(key))' is already a value (line \(previous)), not a table", line: line)
            }
            guard existing.isTable, !existing.isSealed, existing.definition == .implicit else {
                throw scanner.error("[\(join(key))] is defined twice: first on line \(previous)", line: line)
            }
            existing.definition = .header
            existing.line = line
            return existing
        }
        let table = TOMLNode(table: line)
        table.definition = .header
        parent.add(last, table, line: line)
        return table
    }

    /// `[[key]]`: a new element of an array of tables.
    func openTableArray(_ key: [String], line: Int, scanner: TOMLScanner) throws(TOMLError) -> TOMLNode {
        let parent = try walk(key, line: line, scanner: scanner)
        guard let last = key.last else { throw scanner.error("empty header", line: line) }
        let element = TOMLNode(table: line)
        element.definition = .header
        if let existing = parent.child(last) {
            guard case .tableArray = existing.kind else {
                throw scanner.error(
                    "[[\(join(key))]] names '\(join(key))', which is already \(existing.isTable ? "a table" : "a value") (line \(parent.children[last]?.line ?? 0))",
                    line: line)
            }
            existing.elements.append(element)
            return element
        }
        let array = TOMLNode(array: line)
        array.kind = .tableArray
        array.isSealed = false
        array.elements = [element]
        parent.add(last, array, line: line)
        return element
    }

    /// `a.b.c = value` in this table.
    func assign(_ key: [String], value: TOMLNode, line: Int, scanner: TOMLScanner) throws(TOMLError) {
        var node = self
        for (index, component) in key.dropLast().enumerated() {
            let path = join(Array(key[...index]))
            if let existing = node.child(component) {
                guard existing.isTable, !existing.isSealed, existing.definition == .dotted else {
                    let previous = node.children[component]?.line ?? 0
                    throw scanner.error(
                        "'\(path)' is already defined on line \(previous); a dotted key cannot add to it", line: line)
                }
                node = existing
            } else {
                let table = TOMLNode(table: line)
                table.definition = .dotted
                node.add(component, table, line: line)
                node = table
            }
        }
        guard let last = key.last else { throw scanner.error("empty key", line: line) }
        if let previous = node.children[last]?.line {
            throw scanner.error("the key '\(join(key))' is defined twice: first on line \(previous)", line: line)
        }
        node.add(last, value, line: line)
    }

    /// The frozen value.
    func frozen() -> TOMLValue {
        switch kind {
        case .value(let value): return value
        case .table: return .table(tableValue())
        case .array, .tableArray: return .array(elements.map { $0.frozen() })
        }
    }

    func tableValue() -> TOMLTable {
        var table = TOMLTable(line: line)
        for key in keys {
            guard let (node, line) = children[key] else { continue }
            table.entries.append(TOMLTable.Entry(key: key, value: node.frozen(), line: line))
        }
        return table
    }
}
