/// A `strftime`-like format for the clock page: `%H:%M`, `%a %e %b`, without Foundation.
///
/// Supported: `%H %I %M %S %p %d %e %m %y %Y %a %A %b %B %%`. Unknown directives are rejected
/// when the configuration is read, so the page never shows a format it cannot fill.
public struct ClockFormat: Hashable, Sendable {
    /// The format as written.
    public let pattern: String
    /// The directives it may contain, for messages.
    public static let directives = "%H %I %M %S %p %d %e %m %y %Y %a %A %b %B %%"

    /// A format; nil with the offending directive when one is unknown.
    public static func parse(_ pattern: String) -> Result<ClockFormat, ClockFormatError> {
        var characters = pattern.makeIterator()
        while let character = characters.next() {
            guard character == "%" else { continue }
            guard let directive = characters.next() else { return .failure(ClockFormatError(directive: "%")) }
            guard "HIMSpdemyYaAbB%".contains(directive) else {
                return .failure(ClockFormatError(directive: "%" + String(directive)))
            }
        }
        return .success(ClockFormat(pattern: pattern))
    }

    private init(pattern: String) { self.pattern = pattern }

    /// A format written in the program (the demo's pages), not read from a file: an unknown
    /// directive would print as itself, so nothing can fail.
    static func builtIn(_ pattern: String) -> ClockFormat { ClockFormat(pattern: pattern) }

    /// Whether the text changes every second (`%S`), so the page refreshes each second rather than each minute.
    public var showsSeconds: Bool {
        // Two characters in a row rather than contains("%S"), which Embedded Swift's standard library lacks.
        zip(pattern, pattern.dropFirst()).contains { $0 == "%" && $1 == "S" }
    }

    /// The format without its seconds: `%S` and the separator before it (`%H:%M:%S` gives
    /// `%H:%M`), so a narrow panel never shows a dangling ":"; nil when it shows no seconds.
    public var withoutSeconds: ClockFormat? {
        guard showsSeconds else { return nil }
        var kept: [Character] = []
        var characters = pattern.makeIterator()
        while let character = characters.next() {
            guard character == "%", let directive = characters.next() else {
                kept.append(character)
                continue
            }
            if directive == "S" {
                if let last = kept.last, ":.".contains(last) { kept.removeLast() }
                continue
            }
            kept += [character, directive]
        }
        return ClockFormat(pattern: String(kept))
    }

    /// Shorter dates to fall back on, in order, where a date does not fit the panel.
    public static let shorterDates: [ClockFormat] = ["%a %e %b", "%e %b", "%e"].map(ClockFormat.init(pattern:))

    /// The reading in this format.
    public func format(_ reading: ClockReading) -> String {
        let days = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September",
            "October", "November", "December",
        ]
        let day = days.indices.contains(reading.weekday) ? days[reading.weekday] : "?"
        let month = months.indices.contains(reading.month - 1) ? months[reading.month - 1] : "?"
        var out = ""
        var characters = pattern.makeIterator()
        while let character = characters.next() {
            guard character == "%", let directive = characters.next() else {
                out.append(character)
                continue
            }
            switch directive {
            case "H": out += twoDigits(reading.hour)
            case "I": out += twoDigits((reading.hour + 11) % 12 + 1)
            case "M": out += twoDigits(reading.minute)
            case "S": out += twoDigits(reading.second)
            case "p": out += reading.hour < 12 ? "AM" : "PM"
            case "d": out += twoDigits(reading.day)
            case "e": out += reading.day < 10 ? " \(reading.day)" : "\(reading.day)"
            case "m": out += twoDigits(reading.month)
            case "y": out += twoDigits(reading.year % 100)
            case "Y": out += String(reading.year)
            case "a": out += String(day.prefix(3))
            case "A": out += day
            case "b": out += String(month.prefix(3))
            case "B": out += month
            default: out.append(directive)
            }
        }
        return out
    }
}

/// A clock format directive that is not supported.
public struct ClockFormatError: Error, Hashable, Sendable {
    /// The directive, e.g. `%Q`.
    public var directive: String
}
