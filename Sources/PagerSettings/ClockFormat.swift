/// A `strftime`-like format for the clock page: `%H:%M`, `%a %e %b`, without Foundation.
///
/// Supported: `%H %I %M %S %p %d %e %m %y %Y %a %A %b %B %%`. Unknown directives are rejected
/// when the configuration is read, so the page never shows a format it cannot fill.
package struct ClockFormat: Hashable, Sendable {
    /// The format as written.
    package let pattern: String
    /// The directives it may contain, for messages.
    package static let directives = "%H %I %M %S %p %d %e %m %y %Y %a %A %b %B %%"

    /// A format; nil with the offending directive when one is unknown.
    package static func parse(_ pattern: String) -> Result<ClockFormat, ClockFormatError> {
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

    private init(pattern: String) {
        self.pattern = pattern
        // Read once with the format: asked every clock tick, reading the pattern each time cost
        // about 10,000 instructions a tick (48x against luma.oled's clock, not 50x).
        readsTimeOfDay = zip(pattern, pattern.dropFirst()).contains { $0 == "%" && "HIMSp".contains($1) }
        // Two characters in a row rather than contains("%S"), which Embedded Swift's standard library lacks.
        showsSeconds = zip(pattern, pattern.dropFirst()).contains { $0 == "%" && $1 == "S" }
    }

    /// A format written in the program (the demo's pages), not read from a file: an unknown
    /// directive would print as itself, so nothing can fail.
    static func builtIn(_ pattern: String) -> ClockFormat { ClockFormat(pattern: pattern) }

    /// Whether the text reads the time of day (`%H %I %M %S %p`), not the date alone.
    package let readsTimeOfDay: Bool
    /// Whether the text changes every second (`%S`), so the page refreshes each second rather than each minute.
    package let showsSeconds: Bool

    /// The format without its seconds: `%S` and the separator before it (`%H:%M:%S` gives
    /// `%H:%M`), so a narrow panel never shows a dangling ":"; nil when it shows no seconds.
    package var withoutSeconds: ClockFormat? {
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
    package static let shorterDates: [ClockFormat] = ["%a %e %b", "%e %b", "%e"].map(ClockFormat.init(pattern:))
}

/// A clock format directive that is not supported.
package struct ClockFormatError: Error, Hashable, Sendable {
    /// The directive, e.g. `%Q`.
    package var directive: String
}
