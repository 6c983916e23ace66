import CrownVocabulary
import LinuxSystem
import PagerCore
import PagerEngine
import PagerSettings

/// Samples the values behind system, file and gauge pages from `/proc`, `/sys` and the C library,
/// for the engine to format.
///
/// A value that cannot be read is a short reason the page shows (`no sensor`); it never takes
/// the pager down, and nothing here blocks for long (commands go to `CommandRunner`).
package struct PageSampling: Sendable {
    private let proc: SystemReadings
    private let host: HostReadings

    /// Samples from the given procfs and sysfs.
    package init(procRoot: String = "/proc", sysRoot: String = "/sys") {
        proc = SystemReadings(procRoot: procRoot)
        host = HostReadings(sysRoot: sysRoot)
    }

    /// One system value now; one that cannot be read is why, in a few words (`missing`, `no access`).
    package func sample(_ value: SystemValue) -> SystemSample {
        do throws(SystemReadingError) {
            return try read(value)
        } catch {
            return .unavailable(error.brief)
        }
    }

    private func read(_ value: SystemValue) throws(SystemReadingError) -> SystemSample {
        switch value {
        case .hostname:
            return .text(try SystemReadings.hostname())
        case .cpuTemperature:
            do throws(SystemReadingError) {
                return .celsius(try host.cpuTemperature())
            } catch {
                // Most desktops and many boards have no thermal zone 0: the sensor is missing, nothing failed.
                return .unavailable(error.brief == "missing" ? "no sensor" : error.brief)
            }
        case .thermalZone(let zone):
            // A zone the board does not have says so: never another zone's figure.
            return .celsius(try host.cpuTemperature(zone: zone))
        case .battery(let name):
            let supply = try host.powerSupply(named: name)
            return .battery(
                percent: supply.capacityPercent, status: supply.status, secondsToEmpty: supply.secondsToEmpty)
        case .load:
            let load = try proc.loadAverage()
            return .load(
                one: Double(load.oneMinuteHundredths) / 100, five: Double(load.fiveMinutesHundredths) / 100,
                fifteen: Double(load.fifteenMinutesHundredths) / 100)
        case .memory:
            let memory = try proc.memory()
            guard memory.totalBytes > 0 else { return .unavailable("bad data") }
            return .memory(usedBytes: Int64(memory.usedBytes), totalBytes: Int64(memory.totalBytes))
        case .uptime:
            return .uptime(seconds: try proc.uptime().nanoseconds / 1_000_000_000)
        case .disk(let path):
            do throws(SystemReadingError) {
                let usage = try HostReadings.diskUsage(path: path)
                return .disk(usedFraction: usage.usedFraction, totalBytes: usage.totalBytes)
            } catch {
                return .unavailable(error.brief == "missing" ? "no \(path)" : error.brief)
            }
        case .ipAddress(let interface):
            return HostReadings.ipv4Address(interface: interface).map { .text($0) } ?? .unavailable("no address")
        }
    }

    /// The tail of the file at `path`: only the last 16 KiB are read, as a log may be large.
    package func file(_ path: String) -> FileSample {
        do {
            return .text(try FileSystem.readTail(atPath: path, maximumBytes: 16_384))
        } catch {
            return .failed(error.description)
        }
    }
}

/// This machine's values for a headless run (`render` without `--frozen`): the live clock, `/proc`,
/// and commands run to their end (or their timeout) before the frame that shows them.
package struct LivePageSampler: PageSampler {
    private let live = LiveReadings()
    private let sampling = PageSampling()

    /// A sampler of this machine now.
    package init() {}

    package func clock(at instant: Timestamp) -> ClockReading { live.clock(at: instant) }

    package func localClock(at instant: Timestamp) -> LocalClock { live.localClock(at: instant) }

    package func answer(_ read: PageRead, at instant: Timestamp) -> EngineInput? {
        switch read.source {
        case .system(let values):
            return .sampled(page: read.page, values.map(sampling.sample))
        case .file(let path, _):
            return .fileRead(page: read.page, sampling.file(path))
        case .command(let command), .action(let command):
            let runner = CommandRunner()
            runner.start(command, for: read, at: live.monotonicNow())
            while true {
                let now = live.monotonicNow()
                if let (page, result) = runner.collect(at: now).first { return result.finished(page: page) }
                let timeout = runner.nextDeadline(after: now).map { max(1, Int(($0 - now).milliseconds)) } ?? 100
                _ = try? Readiness.wait(for: runner.descriptors, timeoutMilliseconds: min(timeout, 100))
            }
        }
    }
}
