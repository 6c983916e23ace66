import LinuxHardware

/// An error the app explains to the operator: what went wrong, on which file or device, and what to do.
public struct AppError: Error, CustomStringConvertible {
    /// The sentence shown to the operator.
    public var description: String

    /// An error with its explanation.
    public init(_ description: String) { self.description = description }

    init(_ error: FileSystemError) { self.description = error.description }
    init(_ error: TerminalError) { self.description = error.description }
}

/// Writes a line to standard error.
public func printError(_ text: String) {
    StandardError.writeLine(text)
}

/// Reads whole text files the user names (scripts, configuration).
public enum TextFile {
    /// The text of the file at `path`, at most `limit` bytes; invalid UTF-8 is repaired, never fatal.
    public static func read(_ path: String, limit: Int) throws(AppError) -> String {
        do {
            return try FileSystem.readText(atPath: path, maximumBytes: limit)
        } catch {
            throw AppError(error)
        }
    }
}
