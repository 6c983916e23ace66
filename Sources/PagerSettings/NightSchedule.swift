/// The hours of the night (`display.night = "23:00-07:00"`): from `start` up to `end` by the
/// local wall clock, across midnight when `end` comes before `start`.
///
/// A range of no length (`"07:00-07:00"`) is refused when read: it could mean no night or a
/// night all day, and neither is what anyone writes it for (`"off"` is no night).
package struct NightSchedule: Hashable, Sendable, CustomStringConvertible {
    /// The first minute of the night, 0 (00:00) to 1439 (23:59).
    package let start: Int
    /// The first minute of the day again, 0 to 1439, never `start`.
    package let end: Int

    /// Seconds in a day of the wall clock without a daylight-saving change.
    package static let secondsPerDay = 86_400

    /// The night from minute `start` to minute `end` of the day; nil when either is outside
    /// 0...1439 or they are the same.
    package init?(start: Int, end: Int) {
        guard (0..<1440).contains(start), (0..<1440).contains(end), start != end else { return nil }
        self.start = start
        self.end = end
    }

    /// `"HH:MM-HH:MM"`, 24-hour, each hour 00 to 23 (one digit allowed) and minute 00 to 59; nil otherwise.
    package init?(parsing text: String) {
        guard let ends = Self.ends(parsing: text) else { return nil }
        self.init(start: ends.start, end: ends.end)
    }

    /// The minutes of the day a range `"HH:MM-HH:MM"` starts and ends at, the same or not; nil
    /// when it is no such range.
    package static func ends(parsing text: String) -> (start: Int, end: Int)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = minute(of: parts[0]), let end = minute(of: parts[1]) else { return nil }
        return (start, end)
    }

    /// The minute of the day `HH:MM` names, or nil.
    private static func minute(of text: Substring) -> Int? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2, (1...2).contains(fields[0].count), fields[1].count == 2,
            fields[0].allSatisfy({ $0.isASCII && $0.isNumber }), fields[1].allSatisfy({ $0.isASCII && $0.isNumber }),
            let hour = Int(fields[0]), let minute = Int(fields[1]), (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        return hour * 60 + minute
    }

    /// Whether the second `secondOfDay` of the local day (0 to 86,399) is in the night.
    package func contains(secondOfDay: Int) -> Bool {
        let minute = secondOfDay / 60
        return start < end ? (start..<end).contains(minute) : minute >= start || minute < end
    }

    /// `"23:00-07:00"`, as the file writes it.
    package var description: String { Self.clock(start) + "-" + Self.clock(end) }

    private static func clock(_ minute: Int) -> String {
        let hour = minute / 60
        let rest = minute % 60
        return (hour < 10 ? "0" : "") + String(hour) + ":" + (rest < 10 ? "0" : "") + String(rest)
    }

    /// The rule in words, for references and messages.
    package static let rule =
        "a range \"HH:MM-HH:MM\" of the local 24-hour clock, start and end different (\"23:00-07:00\"), or \"off\""
}

/// What the panel does at night (`display.night_mode`).
package enum NightMode: String, CaseIterable, Hashable, Sendable {
    /// Dimmed to `display.dim_brightness`.
    case dim
    /// Switched off.
    case off
}
