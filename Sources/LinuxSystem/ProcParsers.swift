import CrownVocabulary

/// The run-queue load averages, in hundredths so pages can print them without floating point.
package struct LoadAverage: Hashable, Sendable {
    /// The 1-minute average times 100 (0.52 is 52).
    package var oneMinuteHundredths: Int
    /// The 5-minute average times 100.
    package var fiveMinutesHundredths: Int
    /// The 15-minute average times 100.
    package var fifteenMinutesHundredths: Int

    /// Creates a reading from hundredths.
    package init(oneMinuteHundredths: Int, fiveMinutesHundredths: Int, fifteenMinutesHundredths: Int) {
        self.oneMinuteHundredths = oneMinuteHundredths
        self.fiveMinutesHundredths = fiveMinutesHundredths
        self.fifteenMinutesHundredths = fifteenMinutesHundredths
    }
}

/// Memory as the kernel reports it, in bytes.
package struct MemoryReading: Hashable, Sendable {
    /// Usable RAM (MemTotal).
    package var totalBytes: Int
    /// What new programs could get without swapping (MemAvailable).
    package var availableBytes: Int

    /// Creates a reading.
    package init(totalBytes: Int, availableBytes: Int) {
        self.totalBytes = totalBytes
        self.availableBytes = availableBytes
    }

    /// Memory in use, `totalBytes - availableBytes`.
    package var usedBytes: Int { max(0, totalBytes - availableBytes) }
}

/// Why a system reading failed.
package enum SystemReadingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(FileSystemError)
    /// The file was read but its text is not what the kernel writes; `detail` says what was wrong.
    case malformed(path: String, detail: String)
    /// gethostname failed.
    case hostname(errno: Errno)
    /// No thermal zone has the type or directory name `zone`; `available` lists them as
    /// `type (thermal_zoneN)`.
    case noThermalZone(String, available: [String])
    /// No battery or UPS in /sys/class/power_supply (`name` nil), or none called `name`;
    /// `available` lists the supplies as `name (type)`.
    case noPowerSupply(String?, available: [String])

    /// A sentence for the operator.
    package var description: String {
        switch self {
        case .unreadable(let error): return error.description
        case .malformed(let path, let detail): return "unexpected contents in \(path): \(detail)"
        case .hostname(let errno): return "gethostname failed: \(errno.sentence)"
        case .noThermalZone(let zone, let available):
            let list = available.isEmpty ? "there are none" : "the zones are " + available.joined(separator: ", ")
            return "no thermal zone '\(zone)' in /sys/class/thermal: \(list); name one by its type or its directory"
        case .noPowerSupply(let name, let available):
            let list = available.isEmpty ? "there are none" : "the supplies are " + available.joined(separator: ", ")
            let wanted = name.map { "no power supply '\($0)'" } ?? "no battery or UPS"
            return "\(wanted) in /sys/class/power_supply: \(list)"
        }
    }

    /// A few words for a page, where the sentence does not fit: `no access`, `missing`, `bad data`.
    package var brief: String {
        switch self {
        case .unreadable(.failed(_, _, .noSuchFileOrDirectory)): return "missing"
        case .unreadable(.failed(_, _, .permissionDenied)), .unreadable(.failed(_, _, .notPermitted)):
            return "no access"
        case .unreadable: return "unreadable"
        case .malformed: return "bad data"
        case .hostname: return "no name"
        case .noThermalZone(let zone, _): return "no zone \(zone)"
        case .noPowerSupply(let name, _): return name.map { "no battery \($0)" } ?? "no battery"
        }
    }
}

/// Pure parsers of /proc files: text in, values or a typed error out.
package enum ProcParsers {
    /// The load averages from /proc/loadavg, e.g. `0.52 0.58 0.59 1/467 12345`.
    package static func loadAverage(_ text: String, path: String = "/proc/loadavg") throws(SystemReadingError)
        -> LoadAverage
    {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        guard fields.count >= 3 else {
            throw .malformed(path: path, detail: "expected three load averages, found \(fields.count) fields")
        }
        var values: [Int] = []
        for field in fields.prefix(3) {
            guard let value = fixedPoint(field, fractionDigits: 2) else {
                throw .malformed(path: path, detail: "'\(field)' is not a load average")
            }
            values.append(Int(value))
        }
        return LoadAverage(
            oneMinuteHundredths: values[0], fiveMinutesHundredths: values[1], fifteenMinutesHundredths: values[2])
    }

    /// MemTotal and MemAvailable from /proc/meminfo (`MemTotal:  16318412 kB` lines).
    ///
    /// Kernels before 3.14 have no MemAvailable; MemFree + Buffers + Cached stands in, as `free` does.
    package static func memory(_ text: String, path: String = "/proc/meminfo") throws(SystemReadingError)
        -> MemoryReading
    {
        var kibibytes: [Substring: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count >= 2, parts[0].hasSuffix(":"), let value = Int(parts[1]), value >= 0 else { continue }
            // Values are in kB, which /proc means as KiB; the odd line without a unit is a count.
            guard parts.count == 2 || parts[2] == "kB" else { continue }
            kibibytes[parts[0].dropLast()] = value
        }
        guard let total = kibibytes["MemTotal"] else {
            throw .malformed(path: path, detail: "no MemTotal line")
        }
        let available: Int
        if let reported = kibibytes["MemAvailable"] {
            available = reported
        } else if let free = kibibytes["MemFree"], let buffers = kibibytes["Buffers"], let cached = kibibytes["Cached"]
        {
            available = free + buffers + cached
        } else {
            throw .malformed(path: path, detail: "no MemAvailable line, nor MemFree, Buffers and Cached")
        }
        // 2^53 KiB is far beyond any machine; the cap keeps the multiplication from overflowing.
        let limit = 1 << 53
        return MemoryReading(totalBytes: min(total, limit) * 1024, availableBytes: min(available, limit) * 1024)
    }

    /// The time since boot from /proc/uptime, e.g. `12345.67 54321.00`.
    package static func uptime(_ text: String, path: String = "/proc/uptime") throws(SystemReadingError) -> TimeSpan {
        guard let first = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).first else {
            throw .malformed(path: path, detail: "empty")
        }
        guard let centiseconds = fixedPoint(first, fractionDigits: 2), centiseconds <= Int64.max / 10_000_000 else {
            throw .malformed(path: path, detail: "'\(first)' is not a number of seconds")
        }
        return TimeSpan(nanoseconds: centiseconds * 10_000_000)
    }

    /// A non-negative decimal like `12.3` as an integer scaled by 10^`fractionDigits`
    /// (extra digits are cut off); nil if it is not one or too big.
    static func fixedPoint(_ text: Substring, fractionDigits: Int) -> Int64? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= 15, whole.allSatisfy(\.isASCIIDigit) else {
            return nil
        }
        var fraction = parts.count > 1 ? parts[1] : ""
        guard fraction.allSatisfy(\.isASCIIDigit) else { return nil }
        fraction = fraction.prefix(fractionDigits)
        let padded = String(fraction) + String(repeating: "0", count: fractionDigits - fraction.count)
        guard let wholeValue = Int64(whole), let fractionValue = Int64(padded.isEmpty ? "0" : padded) else {
            return nil
        }
        var scale: Int64 = 1
        for _ in 0..<fractionDigits { scale *= 10 }
        return wholeValue * scale + fractionValue
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
