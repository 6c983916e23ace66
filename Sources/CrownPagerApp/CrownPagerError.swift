import LinuxSystem
import PagerConfig
import PagerEngine
import PagerSettings
import SSD1306

/// Why crownpager stopped: the error of the layer that failed, carried whole (the file, line and
/// key; the bus, address and errno; the chip, line and errno), so the command line can both
/// explain it and choose the exit status.
package enum CrownPagerError: Error, Equatable, CustomStringConvertible {
    /// The configuration file is wrong: its file, line, key and reason.
    case configuration(ConfigError)
    /// An indicator picture, named on the command line or in the configuration, cannot be used.
    case image(ImageFileError)
    /// A file the user named (a configuration, a crown script, a trace) could not be read.
    case readFile(FileSystemError)
    /// A file the user named (a trace) could not be read a line at a time: a file error, or a line too long.
    case readLines(FileLinesError)
    /// An output file (frames, a trace, the wiring diagram) could not be written.
    case writeFile(FileSystemError)
    /// An output file (`what`, e.g. "trace") cannot be written at `path`: its folder does not exist.
    case missingFolder(what: String, path: String, folder: String)
    /// The panel's I2C bus or address failed.
    case display(I2CError)
    /// The panel's SPI device, or its DC or RES line, failed.
    case spiDisplay(SPIDisplayError)
    /// The crown's GPIO lines could not be requested or read.
    case crown(GPIOError)
    /// The crown's kernel input device could not be opened or read.
    case inputDevice(InputEventError)
    /// The terminal could not be put in raw mode, read or written.
    case terminal(TerminalError)
    /// The run loop's own system calls (signal handling, poll) failed.
    case system(EventLoopError)
    /// The knob the configuration's `[crown] source` names could not be opened.
    indirect case crownSource(source: String, reason: CrownPagerError)
    /// A crown script cannot be read: from the file `script`, or from `--crown` when nil.
    case crownScript(CrownScriptError, script: String?)
    /// The file `path` is no I2C trace.
    case trace(I2CTraceError, path: String)
    /// A reloaded configuration changes the panel, its bus or its address, which take a restart.
    case restartNeeded
    /// The display stopped answering while a reloaded configuration started it.
    indirect case displayNotAnswering(CrownPagerError)
    /// A use of the command line its parser cannot catch: what is wrong.
    case usage(String)
    /// `[mqtt]` cannot be used as written (a password file others may read): what and the fix.
    case mqtt(String)
    /// `[mqtt]` has a host but libmosquitto cannot be loaded: why, and the package to install.
    case mqttUnavailable(String)

    /// A sentence for the operator: what failed, on which file or device, and how to fix it.
    package var description: String {
        switch self {
        case .configuration(let error): return error.description
        case .image(let error): return error.description
        case .readFile(let error), .writeFile(let error): return error.description
        case .readLines(let error): return error.description
        case .missingFolder(let what, let path, let folder):
            return "cannot write the \(what) \(path): the folder \(folder) does not exist"
        case .display(let error): return error.description
        case .spiDisplay(let error): return error.description
        case .crown(let error): return error.description
        case .inputDevice(let error): return error.description
        case .terminal(let error): return error.description
        case .system(let error): return error.description
        case .crownSource(let source, let reason): return "[crown] source = \"\(source)\": \(reason)"
        case .crownScript(let error, let script): return "\(script.map { "\($0): " } ?? "--crown: ")\(error)"
        case .trace(let error, let path): return "\(path): \(error)"
        case .restartNeeded: return "the panel, bus or address changed: restart crownpager to use them"
        case .displayNotAnswering(let reason): return "the display does not answer: \(reason)"
        case .usage(let message): return message
        case .mqtt(let message), .mqttUnavailable(let message): return "[mqtt] \(message)"
        }
    }
}

/// The program's lines for the operator, on standard error: each at its priority, which the
/// journal files it by when standard error is the journal (`<3>`, `<4>`, `<6>` before the line),
/// and their control characters escaped so quoted text cannot drive the terminal.
package enum OperatorLog {
    /// Something failed: the run stops, or part of it no longer works (the display, the knob).
    package static func error(_ text: String) { write(text, .error) }
    /// Something is wrong, and the program goes on without it.
    package static func warning(_ text: String) { write(text, .warning) }
    /// What the program does: what it drives, a reload, the stop.
    package static func info(_ text: String) { write(text, .info) }

    private static func write(_ text: String, _ priority: LogPriority) {
        StandardError.writeLine(escapingControlCharacters(text), priority: priority)
    }
}

/// Reads whole text files the user names (scripts, configuration).
package enum TextFile {
    /// The text of the file at `path`, at most `limit` bytes; invalid UTF-8 is repaired, never fatal.
    package static func read(_ path: String, limit: Int) throws(CrownPagerError) -> String {
        do {
            return try FileSystem.readText(atPath: path, maximumBytes: limit)
        } catch {
            throw .readFile(error)
        }
    }
}
