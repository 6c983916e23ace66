/// A wall-clock reading for the clock page, already in local time.
package struct ClockReading: Hashable, Sendable {
    package var year: Int
    package var month: Int
    package var day: Int
    package var hour: Int
    package var minute: Int
    package var second: Int
    /// 0 is Sunday, as in C's `tm_wday`.
    package var weekday: Int

    /// Whether `other` falls on the same day: every date a clock page shows reads the same.
    package func isSameDay(as other: ClockReading) -> Bool {
        year == other.year && month == other.month && day == other.day && weekday == other.weekday
    }

    /// Creates a reading; fields out of range are drawn as they are, never trusted for indexing.
    package init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, weekday: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.weekday = weekday
    }

    /// `HH:MM:SS`.
    package var timeText: String { "\(twoDigits(hour)):\(twoDigits(minute)):\(twoDigits(second))" }

    /// `Sat 21 Nov 2026`.
    package var dateText: String {
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let dayName = days.indices.contains(weekday) ? days[weekday] : "?"
        let monthName = months.indices.contains(month - 1) ? months[month - 1] : "?"
        return "\(dayName) \(day) \(monthName) \(year)"
    }
}

/// What the system page shows, read from /proc by the caller.
package struct SystemReading: Hashable, Sendable {
    package var hostname: String
    /// Load averages over 1, 5 and 15 minutes.
    package var load1: Double
    package var load5: Double
    package var load15: Double
    package var memoryTotalBytes: UInt64
    package var memoryAvailableBytes: UInt64
    package var uptimeSeconds: Int64

    /// Creates a reading.
    package init(
        hostname: String, load1: Double, load5: Double, load15: Double,
        memoryTotalBytes: UInt64, memoryAvailableBytes: UInt64, uptimeSeconds: Int64
    ) {
        self.hostname = hostname
        self.load1 = load1
        self.load5 = load5
        self.load15 = load15
        self.memoryTotalBytes = memoryTotalBytes
        self.memoryAvailableBytes = memoryAvailableBytes
        self.uptimeSeconds = uptimeSeconds
    }

    /// The share of memory in use, 0 to 1.
    package var memoryUsedFraction: Double {
        guard memoryTotalBytes > 0 else { return 0 }
        let used = memoryTotalBytes - min(memoryAvailableBytes, memoryTotalBytes)
        return Double(used) / Double(memoryTotalBytes)
    }

    /// `0.42 0.30 0.25`.
    package var loadText: String { "\(fixed(load1, 2)) \(fixed(load5, 2)) \(fixed(load15, 2))" }

    /// `1.2/3.8G`.
    package var memoryText: String {
        let gib = 1024.0 * 1024.0 * 1024.0
        let used = Double(memoryTotalBytes - min(memoryAvailableBytes, memoryTotalBytes)) / gib
        return "\(fixed(used, 1))/\(fixed(Double(memoryTotalBytes) / gib, 1))G"
    }

    /// `3d 4h`, `4h 12m` or `12m`.
    package var uptimeText: String { Self.uptimeText(seconds: uptimeSeconds) }

    /// `seconds` since boot as `3d 4h`, `4h 12m` or `12m`.
    static func uptimeText(seconds: Int64) -> String {
        let minutes = max(0, seconds) / 60
        let hours = minutes / 60
        let days = hours / 24
        if days > 0 { return "\(days)d \(hours % 24)h" }
        if hours > 0 { return "\(hours)h \(minutes % 60)m" }
        return "\(minutes)m"
    }
}

func twoDigits(_ value: Int) -> String {
    value >= 0 && value < 10 ? "0\(value)" : "\(value)"
}

/// `value` with `decimals` digits (0 to 9) after the point, rounded half away from zero, without Foundation.
package func fixed(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "-" }
    let decimals = max(0, min(decimals, 9))
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let magnitude = (abs(value) * scale).rounded()
    // Past 1e18 an Int64 no longer holds the scaled value: such a number is shown as Swift writes it.
    guard magnitude < 1e18 else { return "\(value)" }
    let scaled = Int64(magnitude)
    let whole = scaled / Int64(scale)
    var fraction = String(scaled % Int64(scale))
    while fraction.count < decimals { fraction = "0" + fraction }
    let sign = value < 0 && scaled != 0 ? "-" : ""
    return decimals > 0 ? "\(sign)\(whole).\(fraction)" : "\(sign)\(whole)"
}

/// A gauge's value as shown beside it: `48.3°C`, `62%`: one decimal below 100, none above.
package func gaugeText(_ value: Double, unit: String) -> String {
    fixed(value, abs(value) < 100 ? 1 : 0) + unit
}
