/// Why a TOML document could not be read: where, and what was expected there.
package struct TOMLError: Error, Equatable, CustomStringConvertible {
    /// The 1-based line of the problem.
    package var line: Int
    /// The 1-based column (in bytes) of the problem.
    package var column: Int
    /// What is wrong and what was expected.
    package var message: String

    /// An error at `line`, `column`.
    package init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line 3, column 9: expected '=' after the key 'panel'`.
    package var description: String { "line \(line), column \(column): \(message)" }
}
