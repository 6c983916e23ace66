import PagerEngine

/// Fixed readings for reproducible frames (goldens, the README picture, `--frozen`).
package enum SampleReadings {
    /// 10:09:30 on Saturday 21 November 2026.
    package static let clock = ClockReading(year: 2026, month: 11, day: 21, hour: 10, minute: 9, second: 30, weekday: 6)
    /// A Raspberry Pi with some load.
    package static let system = SystemReading(
        hostname: "crownpi", load1: 0.42, load5: 0.30, load15: 0.25,
        memoryTotalBytes: 4_026_531_840, memoryAvailableBytes: 2_818_572_288, uptimeSeconds: 273_600)
}
