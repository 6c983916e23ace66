import CrownInput
import CrownVocabulary
import Testing

/// The doctor's live figures.
@Suite struct KnobMonitorTests {
    @Test func countsDirectionSpeedAndPresses() {
        var monitor = KnobMonitor(speedWindow: .seconds(1))
        for ms in stride(from: Int64(0), to: 1000, by: 250) {
            monitor.record(.rotated(detents: 1, at: .milliseconds(ms)))
        }
        monitor.record(.rotated(detents: -2, at: .milliseconds(1100)))
        monitor.record(.pressed(at: .milliseconds(1200)))
        monitor.record(.released(at: .milliseconds(1320)))
        monitor.glitchesFiltered = 7
        #expect(monitor.netDetents == 2 && monitor.clockwiseDetents == 4 && monitor.counterclockwiseDetents == 2)
        #expect(monitor.reversals == 1 && monitor.presses == 1 && !monitor.isPressed)
        #expect(monitor.lastPressDuration == .milliseconds(120))
        // In the second before 1.5 s: the detents at 750 ms and the two at 1100 ms.
        #expect(monitor.speedTenths(at: .milliseconds(1500)) == 30)
        #expect(monitor.speedTenths(at: .milliseconds(5000)) == 0)
        #expect(
            monitor.summary(at: .milliseconds(1500))
                == "detents +2 (cw 4, ccw 2) \u{B7} last counterclockwise \u{B7} 3.0/s \u{B7} presses 1 (up, last 120 ms) \u{B7} glitches filtered 7"
        )
        #expect(monitor.describe(.rotated(detents: -2, at: .zero)) == "-2 detents counterclockwise")
        #expect(monitor.describe(.released(at: .zero)) == "released after 120 ms")
    }
}
