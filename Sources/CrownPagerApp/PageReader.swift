import LinuxHardware
import PagerCore
import PagerEngine

/// Reads the values behind system, file and gauge pages from `/proc`, `/sys` and the C library.
///
/// A value that cannot be read shows as a short reason on the page (`no sensor`); it never
/// takes the pager down, and nothing here blocks for long (commands go to `CommandRunner`).
public struct PageReader: Sendable {
    private let proc: SystemReadings
    private let host: HostReadings

    /// Readings from the given procfs and sysfs.
    public init(procRoot: String = "/proc", sysRoot: String = "/sys") {
        proc = SystemReadings(procRoot: procRoot)
        host = HostReadings(sysRoot: sysRoot)
    }

    /// One system value as text, and as a number for gauges.
    public func read(_ value: SystemValue) -> (text: String, number: Double?) {
        switch value {
        case .hostname:
            return ((try? SystemReadings.hostname()) ?? "?", nil)
        case .cpuTemperature:
            do {
                let celsius = try host.cpuTemperature()
                return (fixed(celsius, 1) + "\u{B0}C", celsius)
            } catch {
                return ("no sensor", nil)
            }
        case .load:
            guard let load = try? proc.loadAverage() else { return ("?", nil) }
            let one = Double(load.oneMinuteHundredths) / 100
            return (
                "\(fixed(one, 2)) \(fixed(Double(load.fiveMinutesHundredths) / 100, 2)) \(fixed(Double(load.fifteenMinutesHundredths) / 100, 2))",
                one
            )
        case .memory:
            guard let memory = try? proc.memory(), memory.totalBytes > 0 else { return ("?", nil) }
            let percent = Double(memory.usedBytes) * 100 / Double(memory.totalBytes)
            let gib = 1024.0 * 1024 * 1024
            return (
                "\(fixed(Double(memory.usedBytes) / gib, 1))/\(fixed(Double(memory.totalBytes) / gib, 1))G \(fixed(percent, 0))%",
                percent
            )
        case .uptime:
            guard let uptime = try? proc.uptime() else { return ("?", nil) }
            let seconds = uptime.nanoseconds / 1_000_000_000
            let reading = SystemReading(
                hostname: "", load1: 0, load5: 0, load15: 0, memoryTotalBytes: 0, memoryAvailableBytes: 0,
                uptimeSeconds: seconds)
            return (reading.uptimeText, Double(seconds) / 3600)
        case .disk(let path):
            guard let usage = try? HostReadings.diskUsage(path: path) else { return ("no \(path)", nil) }
            let percent = usage.usedFraction * 100
            return ("\(fixed(percent, 0))% of \(fixed(Double(usage.totalBytes) / 1e9, 0))G", percent)
        case .ipAddress(let interface):
            return (HostReadings.ipv4Address(interface: interface) ?? "no address", nil)
        }
    }

    /// The reading for a page that is read in place (not a command); nil for pages that run commands or never change.
    public func reading(for spec: PageSpec) -> PageReading? {
        switch spec.kind {
        case .system(let values, _):
            return .values(values.map { ValueLine(label: $0.label, value: read($0).text) })
        case .file(let path, let lines, _):
            return fileTail(path, lines: lines)
        case .gauge(let gauge):
            switch gauge.source {
            case .system(let value):
                let (text, number) = read(value)
                return .number(number, text: number.map { Self.gaugeText($0, unit: gauge.unit) } ?? text)
            case .file(let path):
                guard case .output(let text, nil) = fileTail(path, lines: 1), let number = firstNumber(in: text) else {
                    return .number(nil, text: "no value")
                }
                return .number(number, text: Self.gaugeText(number, unit: gauge.unit))
            case .command:
                return nil
            }
        case .command, .text, .image, .clock:
            return nil
        }
    }

    /// `48.3°C`, `62%`: one decimal below 100, none above.
    public static func gaugeText(_ value: Double, unit: String) -> String {
        PagerEngine.gaugeText(value, unit: unit)
    }

    private func fileTail(_ path: String, lines: Int) -> PageReading {
        // Only the last 16 KiB are read: a log may be large.
        do {
            let text = try FileSystem.readTail(atPath: path, maximumBytes: 16_384)
            let all = text.split(separator: "\n", omittingEmptySubsequences: true)
            return .output(text: all.suffix(lines).joined(separator: "\n"), status: nil)
        } catch {
            return .output(text: "", status: error.description)
        }
    }
}
