/// Why a TOML document could not be read: where, and what was expected there.
public struct TOMLError: Error, Equatable, CustomStringConvertible {
    /// The 1-based line of the problem.
    public var line: Int
    /// The 1-based column (in bytes) of the problem.
    public var column: Int
    /// What is wrong and what was expected.
    public var message: String

    /// An error at `line`, `column`.
    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line 3, column 9: expected '=' after the key 'panel'`.
    public var description: String { "line \(line), column \(column): \(message)" }
}
