import CrownVocabulary
import PagerCore
import PagerGraphics
import PagerSettings

/// The latest reading behind a page: what a refresh produced.
package enum PageReading: Hashable, Sendable {
    /// Not read yet.
    case pending
    /// System values, one a line.
    case values([ValueLine])
    /// A command's or a file's text, and a status line when it did not simply succeed.
    case output(text: String, status: String?)
    /// A gauge's number (nil when it could not be read) and the text to show.
    case number(Double?, text: String)
}

/// The configured pages and their latest readings: turns them into `ConfiguredPage`s to draw,
/// and says how often each must be read. Pure.
package struct PageBook: Sendable {
    /// The pages as configured.
    package let specs: [PageSpec]
    /// The latest reading of each page.
    package var readings: [PageReading]
    /// Glyphs for characters misc-fixed lacks, from the shell (`EngineInput.glyphs`), handed to every page.
    package var glyphs: BitmapFont?
    /// Each clock page's time format without its seconds (`ClockFormat.withoutSeconds`): a
    /// property of the configuration, worked out once rather than with every reading.
    private let timesWithoutSeconds: [ClockFormat?]

    /// A book of `specs`, nothing read yet.
    package init(specs: [PageSpec]) {
        // Titles reach the glass as a terminal would show them, as command output does.
        self.specs = specs.map { spec in
            var spec = spec
            spec.title = TerminalText.read(spec.title)
            return spec
        }
        readings = specs.map { _ in .pending }
        timesWithoutSeconds = specs.map { spec in
            if case .clock(let time, _) = spec.kind { return time.withoutSeconds }
            return nil
        }
    }

    /// How often each page changes: clocks by the second or the minute, values by their refresh; nil for fixed pages.
    package var intervals: [TimeSpan?] {
        specs.map { spec in
            switch spec.kind {
            case .text, .image: return nil
            case .clock(let time, let date):
                return time.showsSeconds || date.showsSeconds ? .milliseconds(1000) : .milliseconds(60_000)
            case .system(_, let refresh), .file(_, _, let refresh): return refresh
            case .command(let command): return command.refresh
            case .gauge(let gauge): return gauge.source == .push ? nil : gauge.refresh
            }
        }
    }

    /// The pages as they stand, the clock at `clock`.
    package func pages(clock: ClockReading) -> [ConfiguredPage] {
        specs.indices.map { page($0, clock: clock) }
    }

    /// One page as it stands, with the book's glyphs. A clock page whose date reads the same on
    /// `shown` (made at `shownClock`, the same day) takes its date lines from it: only its time is
    /// formatted again. Without that a clock tick costs 105,317 instructions instead of
    /// 94,123, under the 50x against luma.oled it must hold
    /// (`Scripts/bench/bench-vs-luma.sh --instructions`, 2026-11-27).
    package func page(
        _ index: Int, clock: ClockReading, shown: ConfiguredPage? = nil, shownClock: ClockReading? = nil
    ) -> ConfiguredPage {
        var page = bare(index, clock: clock, shown: shown, shownClock: shownClock)
        if specs[index].size == .large, let text = page.body.largeText { page.body = .large(text) }
        page.duration = specs[index].duration
        if let action = specs[index].action {
            page.hasPressAction = action.confirmation != .hold
            page.hasHoldAction = action.confirmation == .hold
        }
        page.font = specs[index].font?.font
        if let glyphs { page.fallbackGlyphs = glyphs }
        if specs[index].size == .large { page.prepareLargeChains() }
        return page
    }

    private func bare(
        _ index: Int, clock: ClockReading, shown: ConfiguredPage?, shownClock: ClockReading?
    ) -> ConfiguredPage {
        let spec = specs[index]
        let reading = readings.indices.contains(index) ? readings[index] : .pending
        switch spec.kind {
        case .text(let text):
            return spec.push == nil ? ConfiguredPage(title: spec.title, body: .text(text)) : pushedText(spec, reading)
        case .image(let image):
            return ConfiguredPage(title: spec.title, body: .image(image.bitmap))
        case .clock(let time, let date):
            // What the shown page, made the same day, already reads: its date lines, and its time
            // without seconds within the minute.
            var sameDay: (date: String, shorterTimes: [String], shorterDates: [String], sameMinute: Bool)?
            if let shown, let shownClock, shownClock.isSameDay(as: clock),
                case .clock(_, let shownDate, let shownShorterTimes, let shownShorterDates) = shown.body
            {
                let sameMinute = shownClock.hour == clock.hour && shownClock.minute == clock.minute
                sameDay = (shownDate, shownShorterTimes, shownShorterDates, sameMinute)
            }
            let shorterTimes: [String]
            if let sameDay, sameDay.sameMinute {
                shorterTimes = sameDay.shorterTimes
            } else {
                shorterTimes = timesWithoutSeconds[index].map { [$0.format(clock)] } ?? []
            }
            if let sameDay, !date.readsTimeOfDay {
                return ConfiguredPage(
                    title: spec.title,
                    body: .clock(
                        time: time.format(clock), date: sameDay.date, shorterTimes: shorterTimes,
                        shorterDates: sameDay.shorterDates))
            }
            let full = date.format(clock)
            var shorterDates: [String] = []
            for format in ClockFormat.shorterDates {
                let shorter = format.format(clock)
                if shorter.count < (shorterDates.last ?? full).count { shorterDates.append(shorter) }
            }
            return ConfiguredPage(
                title: spec.title,
                body: .clock(
                    time: time.format(clock), date: full, shorterTimes: shorterTimes,
                    // The shorter forms are English: a date with words of its own (Korean
                    // month names) keeps them, giving the time a smaller face instead.
                    shorterDates: full.isEmpty || !full.unicodeScalars.allSatisfy({ $0.isASCII }) ? [] : shorterDates))
        case .system:
            if case .values(let lines) = reading { return ConfiguredPage(title: spec.title, body: .values(lines)) }
            return ConfiguredPage(title: spec.title, body: .values([]))
        case .command, .file:
            if case .output(let text, let status) = reading {
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                let trimmed = lines.last == "" ? Array(lines.dropLast()) : lines
                return ConfiguredPage(title: spec.title, body: .output(lines: trimmed, status: status))
            }
            return ConfiguredPage(title: spec.title, body: .output(lines: [], status: "waiting for the first run"))
        case .gauge(let gauge):
            guard case .number(let value, let text) = reading else {
                return ConfiguredPage(title: spec.title, body: .gauge(fraction: nil, text: "-", isDial: gauge.isDial))
            }
            // An infinite reading or an empty range gives no fraction: the gauge shows it as unknown.
            let fraction = value.map { ($0 - gauge.minimum) / (gauge.maximum - gauge.minimum) }.flatMap {
                $0.isFinite ? $0 : nil
            }
            return ConfiguredPage(title: spec.title, body: .gauge(fraction: fraction, text: text, isDial: gauge.isDial))
        }
    }
}

extension PageBook {
    /// A text page whose text comes from `crownpager set`: the text pushed (its status line
    /// `stale` once `stale_after` passes), or the configured text, or a status line, until the first.
    func pushedText(_ spec: PageSpec, _ reading: PageReading) -> ConfiguredPage {
        if case .output(let text, let status) = reading {
            return ConfiguredPage(
                title: spec.title,
                body: .output(
                    lines: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
                    status: status))
        }
        guard case .text(let placeholder) = spec.kind, !placeholder.isEmpty else {
            return ConfiguredPage(title: spec.title, body: .output(lines: [], status: "waiting for a value"))
        }
        return ConfiguredPage(title: spec.title, body: .text(placeholder))
    }
}

/// The first number in `text` (`temp=48.3'C` gives 48.3), for gauges fed by commands and files.
package func firstNumber(in text: String) -> Double? {
    var digits = ""
    var seenDigit = false
    for character in text {
        if character.isASCII, character.isNumber || (character == "." && seenDigit && !digits.contains(".")) {
            digits.append(character)
            seenDigit = seenDigit || character.isNumber
        } else if character == "-", digits.isEmpty {
            digits = "-"
        } else if seenDigit {
            break
        } else {
            digits = ""
        }
    }
    if digits.hasSuffix(".") { digits.removeLast() }
    return seenDigit ? Double(digits) : nil
}

extension ConfiguredPage.Body {
    /// What a `size = "large"` page shows of this body: a text's text, a system page's values
    /// (without their labels, a line each), a command's output and, under it, its status; nil
    /// for the bodies large text does not take.
    var largeText: String? {
        switch self {
        case .text(let text): return text
        case .values(let values): return values.map { $0.value }.joined(separator: "\n")
        case .output(let lines, let status):
            return (lines.filter { !$0.isEmpty } + (status.map { ["[\($0)]"] } ?? [])).joined(separator: "\n")
        case .clock, .image, .gauge, .large: return nil
        }
    }
}
