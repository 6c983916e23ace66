import ArgumentParser
import CrownPagerApp
import LinuxSystem
import PagerEngine

/// How `crownpager` ends, as sysexits.h numbers the failures: what a script or systemd can act on.
///
/// A signal that ends the terminal mock gives 128 + the signal, as a shell reports it; usage
/// errors the argument parser finds give 64, like `usage` here.
enum ExitStatus: Int32, CaseIterable {
    /// It did what was asked.
    case success = 0
    /// EX_USAGE: the command line is wrong.
    case usage = 64
    /// EX_DATAERR: an input file is malformed (a PBM, PNG or XBM picture, a crown script, a trace).
    case dataError = 65
    /// EX_NOINPUT: an input file does not exist or cannot be read.
    case noInput = 66
    /// EX_UNAVAILABLE: a device is missing or refuses (no panel answers, no GPIO chip, no terminal).
    case unavailable = 69
    /// EX_CANTCREAT: an output path names what cannot be written (a folder, a block device).
    case cannotCreate = 73
    /// EX_IOERR: reading or writing failed midway (a device, an output file).
    case ioError = 74
    /// EX_CONFIG: the configuration file is wrong.
    case configuration = 78
}

extension CrownPagerError {
    /// The exit status this failure ends the program with.
    var exitStatus: ExitStatus {
        switch self {
        case .configuration, .restartNeeded, .mqtt: return .configuration
        case .image(let error): return error.kind == .unreadable ? .noInput : .dataError
        case .readFile(.tooLarge), .readFile(.notARegularFile), .readFile(.unsuitableOutput): return .dataError
        case .readFile(.failed(_, _, let errno)): return errno == .ioError ? .ioError : .noInput
        case .writeFile(.unsuitableOutput): return .cannotCreate
        case .readLines(.file(let error)): return CrownPagerError.readFile(error).exitStatus
        case .readLines(.lineTooLong): return .dataError
        case .writeFile, .missingFolder, .system: return .ioError
        case .display(let error): return error.kind == .bus ? .ioError : .unavailable
        case .spiDisplay(.device(let error)): return error.operation == .write ? .ioError : .unavailable
        case .spiDisplay: return .unavailable
        case .crown(let error): return error.operation == .read ? .ioError : .unavailable
        case .inputDevice(.notFound), .inputDevice(.permissionDenied): return .unavailable
        case .inputDevice(.disconnected), .inputDevice(.system): return .ioError
        case .terminal(.notATerminal): return .unavailable
        case .terminal: return .ioError
        case .crownSource(_, let reason), .displayNotAnswering(let reason): return reason.exitStatus
        case .crownScript(_, let script): return script == nil ? .usage : .dataError
        case .trace: return .dataError
        case .usage: return .usage
        case .mqttUnavailable: return .unavailable
        }
    }
}

/// Runs `body`; an error the app explains becomes its message on standard error and its exit status.
func report(prefix: String = "", _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as CrownPagerError {
        throw fail(error, prefix: prefix)
    }
}

/// Reads a whole text file the user named, or explains why not and exits (66 for a missing file).
func readTextFile(_ path: String, what: String) throws -> String {
    do throws(CrownPagerError) {
        return try TextFile.read(path, limit: 1 << 20)
    } catch {
        throw fail(error, prefix: "cannot read the \(what): ")
    }
}

/// Writes `error`'s message (after `prefix`) to standard error and returns its exit status to
/// throw: for bad input found while running, where the usage text would only hide the message.
func fail(_ error: CrownPagerError, prefix: String = "") -> ExitCode {
    OperatorLog.error("crownpager: \(prefix)\(error)")
    return ExitCode(error.exitStatus.rawValue)
}
