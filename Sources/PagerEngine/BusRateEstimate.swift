import CrownVocabulary

/// How fast the display's bus really is, learnt from how long the shell's writes took: the
/// median time a bit took over the last few writes.
///
/// `display.bus_hz` is only where it starts: the kernel's clock may differ (a Pi left at
/// 100 kHz, `dtparam=i2c_arm_baudrate` never set), long wires and clock stretching slow it, and
/// every write(2) adds the kernel's time. A median rather than a mean, so one slow write (the
/// process preempted, a retried transfer) moves nothing, and a wrong `bus_hz` is forgotten
/// after two writes: the configured clock counts as one write until the window has turned over.
/// Of two middle values the faster counts: a write cannot be faster than the bus, but any
/// write can be slowed.
package struct BusRateEstimate: Hashable, Sendable {
    /// Writes remembered.
    package static let window = 7
    /// What one bit may take: from a 5 MHz clock (nothing faster is measured, the emulator and a
    /// fake bus take no time at all) to a 1 kHz one.
    package static let bitTimes: ClosedRange<Int64> = 200_000...1_000_000_000
    /// Picoseconds a bit took in the writes remembered, the configured clock's first; once the
    /// window is full the oldest is replaced.
    private var samples: [Int64]
    /// Where the next write replaces one once the window is full.
    private var oldest = 0
    /// The estimate: picoseconds a bit takes on the bus, the median of `samples`.
    package private(set) var picosecondsPerBit: Int64
    /// Writes measured so far.
    package private(set) var writesMeasured = 0

    /// The estimate before any write: the configured clock, `hertz`.
    package init(hertz: Int) {
        picosecondsPerBit = Self.bitTime(hertz: hertz)
        samples = [picosecondsPerBit]
        samples.reserveCapacity(Self.window)
    }

    /// The clock the estimate amounts to, in bits a second.
    package var hertz: Int { Int(1_000_000_000_000 / picosecondsPerBit) }

    /// Picoseconds a bit takes at `hertz`, within `bitTimes`.
    static func bitTime(hertz: Int) -> Int64 {
        min(max(1_000_000_000_000 / Int64(max(1, hertz)), bitTimes.lowerBound), bitTimes.upperBound)
    }

    /// How long `bits` take on the bus, by the estimate.
    package func time(bits: Int) -> TimeSpan {
        TimeSpan(nanoseconds: Int64(max(0, bits)) * picosecondsPerBit / 1000)
    }

    /// A write of `bits` that took `took`, from the first byte handed to the kernel to the last
    /// acknowledged. Writes of nothing, or that took no time, teach nothing and are left out.
    package mutating func record(bits: Int, took: TimeSpan) {
        guard bits > 0, took.nanoseconds > 0 else { return }
        // Ten seconds at most: a longer write is a stalled bus, and the product stays in range.
        let nanoseconds = min(took.nanoseconds, 10_000_000_000)
        let sample = min(max(nanoseconds * 1000 / Int64(bits), Self.bitTimes.lowerBound), Self.bitTimes.upperBound)
        if samples.count < Self.window {
            samples.append(sample)
        } else {
            samples[oldest] = sample
            oldest = (oldest + 1) % Self.window
        }
        writesMeasured += 1
        picosecondsPerBit = Self.lowerMedian(samples)
    }

    /// The middle of `values`, the lower (the faster bit time) of the two middle ones for an even
    /// count. Without sorting a copy: no allocation in the frame loop.
    static func lowerMedian(_ values: [Int64]) -> Int64 {
        let rank = (values.count - 1) / 2
        for value in values {
            var below = 0
            var atMost = 0
            for other in values {
                if other < value { below += 1 }
                if other <= value { atMost += 1 }
            }
            if below <= rank, rank < atMost { return value }
        }
        return values.first ?? bitTimes.lowerBound
    }
}
