import PagerCore
import PagerGraphics
import PagerSettings

/// What the engine asks the shell to read for a page: the shell does the I/O, the engine
/// turns the raw result into what the page shows.
package struct PageRead: Hashable, Sendable {
    /// The page, counted from 0.
    package var page: Int
    /// Where its value comes from.
    package var source: Source

    /// Where a page's value comes from.
    package enum Source: Hashable, Sendable {
        /// Values of this machine, sampled now; answered with `EngineInput.sampled(page:_:)`.
        case system([SystemValue])
        /// The last `lines` lines of a file; answered with `EngineInput.fileRead(page:_:)`.
        case file(path: String, lines: Int)
        /// A command to start; answered, once it ends, with `EngineInput.commandFinished(page:output:status:)`.
        case command(CommandSpec)
        /// A page's action to run, as a command is: answered, once it ends, with `EngineInput.actionFinished(page:output:status:)`.
        case action(CommandSpec)
    }

    /// A read of `source` for `page`.
    package init(page: Int, source: Source) {
        self.page = page
        self.source = source
    }
}

/// One system value as the shell sampled it, before it is formatted for a page.
package enum SystemSample: Hashable, Sendable {
    /// A name: the host's, or an address.
    case text(String)
    /// A temperature in degrees Celsius.
    case celsius(Double)
    /// The load averages over 1, 5 and 15 minutes.
    case load(one: Double, five: Double, fifteen: Double)
    /// Memory in use and in all, in bytes.
    case memory(usedBytes: Int64, totalBytes: Int64)
    /// Time since boot.
    case uptime(seconds: Int64)
    /// The file system's use, as a fraction, and its size in bytes.
    case disk(usedFraction: Double, totalBytes: UInt64)
    /// A battery's or UPS's charge (0 to 100, nil when unknown), its kernel `status`
    /// (`Charging`, `Discharging`, `Full`...) and the seconds it has left, where known.
    case battery(percent: Double?, status: String, secondsToEmpty: Int64?)
    /// Not to be had: the short reason the page shows (`no sensor`, `no address`).
    case unavailable(String)

    /// The value as a page line shows it, and as a number for gauges.
    package var formatted: (text: String, number: Double?) {
        switch self {
        case .text(let text):
            return (text, nil)
        case .celsius(let celsius):
            return (fixed(celsius, 1) + "\u{B0}C", celsius)
        case .load(let one, let five, let fifteen):
            return ("\(fixed(one, 2)) \(fixed(five, 2)) \(fixed(fifteen, 2))", one)
        case .memory(let used, let total):
            guard total > 0 else { return ("?", nil) }
            let percent = Double(used) * 100 / Double(total)
            let gib = 1024.0 * 1024 * 1024
            return ("\(fixed(Double(used) / gib, 1))/\(fixed(Double(total) / gib, 1))G \(fixed(percent, 0))%", percent)
        case .uptime(let seconds):
            return (SystemReading.uptimeText(seconds: seconds), Double(seconds) / 3600)
        case .disk(let usedFraction, let totalBytes):
            let percent = usedFraction * 100
            return ("\(fixed(percent, 0))% of \(fixed(Double(totalBytes) / 1e9, 0))G", percent)
        case .battery(let percent, let status, let seconds):
            return (Self.batteryText(percent: percent, status: status, secondsToEmpty: seconds), percent)
        case .unavailable(let reason):
            return (reason, nil)
        }
    }

    /// `87% 2h 10m left`, `87% charging`, `100% full`: the charge always with its percent sign and
    /// the time always with `left`, so that neither reads as the other.
    static func batteryText(percent: Double?, status: String, secondsToEmpty: Int64?) -> String {
        let charge = percent.map { fixed($0, 0) + "%" }
        if let seconds = secondsToEmpty {
            return [charge, SystemReading.uptimeText(seconds: seconds) + " left"].compactMap { $0 }.joined(
                separator: " ")
        }
        let state: String
        switch status {
        case "Discharging": state = "on battery"
        case "Unknown", "": state = ""
        default: state = status.lowercased()
        }
        return [charge, state.isEmpty ? nil : state].compactMap { $0 }.joined(separator: " ")
    }
}

/// What reading a file gave: its text, or why there is none.
package enum FileSample: Hashable, Sendable {
    /// The file's text (its tail: a log may be large).
    case text(String)
    /// Why it could not be read, for the page's status line.
    case failed(String)
}

extension PageSpec {
    /// What to read for the page; nil for pages that never change or that the clock drives.
    package var read: PageRead.Source? {
        switch kind {
        case .system(let values, _): return .system(values)
        case .file(let path, let lines, _): return .file(path: path, lines: lines)
        case .command(let command): return .command(command)
        case .gauge(let gauge):
            switch gauge.source {
            case .system(let value): return .system([value])
            case .file(let path): return .file(path: path, lines: 1)
            case .command(let command): return .command(command)
            case .push: return nil
            }
        case .text, .image, .clock: return nil
        }
    }

    /// The page's reading from sampled system values (in the order `read` asked for them).
    package func reading(sampled samples: [SystemSample]) -> PageReading {
        if case .gauge(let gauge) = kind {
            let (text, number) = samples.first?.formatted ?? ("?", nil)
            return .number(number, text: number.map { PagerEngine.gaugeText($0, unit: gauge.unit) } ?? text)
        }
        guard case .system(let values, _) = kind else { return .pending }
        return .values(
            values.enumerated().map { index, value in
                ValueLine(label: value.label, value: index < samples.count ? samples[index].formatted.text : "?")
            })
    }

    /// The page's reading from a file's text: its last lines, or a gauge's first number.
    package func reading(file sample: FileSample) -> PageReading {
        switch (kind, sample) {
        case (.gauge(let gauge), .text(let text)):
            guard let number = firstNumber(in: lastLines(text, 1)) else { return .number(nil, text: "no value") }
            return .number(number, text: PagerEngine.gaugeText(number, unit: gauge.unit))
        case (.gauge, .failed):
            return .number(nil, text: "no value")
        case (.file(_, let lines, _), .text(let text)):
            return .output(text: lastLines(text, lines), status: nil)
        case (_, .failed(let reason)):
            return .output(text: "", status: reason)
        case (_, .text(let text)):
            return .output(text: text, status: nil)
        }
    }

    /// The page's reading from a finished command: its output, or a gauge's first number.
    package func reading(commandOutput output: String, status: String?) -> PageReading {
        guard case .gauge(let gauge) = kind else { return .output(text: output, status: status) }
        guard status == nil, let number = firstNumber(in: output) else {
            return .number(nil, text: status ?? "no number")
        }
        return .number(number, text: PagerEngine.gaugeText(number, unit: gauge.unit))
    }

    /// The command the page runs, if it runs one.
    package var command: CommandSpec? {
        if case .command(let command) = read { return command }
        return nil
    }
}

/// The last `count` non-empty lines of `text`.
func lastLines(_ text: String, _ count: Int) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: true).suffix(max(0, count)).joined(separator: "\n")
}

extension PageSpec {
    /// Whether the page is a clock, refreshed from the local time.
    var isClock: Bool {
        if case .clock = kind { return true }
        return false
    }
}

extension PageRead.Source {
    /// Whether the shell answers at once (a sample, a file) rather than when a command ends.
    package var isImmediate: Bool {
        switch self {
        case .command, .action: return false
        case .system, .file: return true
        }
    }
}

extension FileSample {
    /// The file's text as a terminal shows it (`TerminalText`): a coloured log reads as its words.
    var asTerminalShows: FileSample {
        if case .text(let text) = self { return .text(TerminalText.read(text)) }
        return self
    }
}
