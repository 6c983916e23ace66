import CrownInput
import CrownVocabulary
import Testing

/// Kernel input events a broken or crafted device can send (found by Scripts/dev/fuzz.sh): never a trap.
@Suite struct AbsurdInputEventTests {
    private func record(_ type: UInt16, _ code: UInt16, _ value: Int32, at nanoseconds: Int64) -> InputEventRecord {
        InputEventRecord(timestamp: Timestamp(nanoseconds: nanoseconds), type: type, code: code, value: value)
    }

    @Test func extremeRelativeValuesAndTimestamps() {
        for inverted in [false, true] {
            var translator = InputEventTranslator(
                configuration: InputEventConfiguration(axis: InputEventCode.REL_DIAL, inverted: inverted))
            let events = translator.translate([
                record(InputEventCode.EV_REL, InputEventCode.REL_DIAL, .min, at: .max),
                record(InputEventCode.EV_SYN, InputEventCode.SYN_REPORT, 0, at: .max),
                record(InputEventCode.EV_REL, InputEventCode.REL_DIAL, .max, at: .min),
                record(InputEventCode.EV_SYN, InputEventCode.SYN_REPORT, 0, at: .min),
            ])
            let sign = inverted ? -1 : 1
            #expect(
                events == [
                    .rotated(detents: sign * Int(Int32.min), at: Timestamp(nanoseconds: .max)),
                    .rotated(detents: sign * Int(Int32.max), at: Timestamp(nanoseconds: .min)),
                ])
        }
    }

    @Test func extremeAbsolutePositionsWithAndWithoutRollover() {
        for steps in [nil, 24, Int.max] {
            var translator = InputEventTranslator(
                configuration: InputEventConfiguration(axis: InputEventCode.REL_X, absoluteSteps: steps))
            _ = translator.translate([
                record(InputEventCode.EV_ABS, InputEventCode.REL_X, .min, at: 0),
                record(InputEventCode.EV_ABS, InputEventCode.REL_X, .max, at: 1),
                record(InputEventCode.EV_ABS, InputEventCode.REL_X, .min, at: 2),
                record(InputEventCode.EV_SYN, InputEventCode.SYN_REPORT, 0, at: 3),
            ])
        }
    }

    @Test func theDoctorsFiguresHoldHugeTurns() {
        var monitor = KnobMonitor()
        // A billion detents at once: its speed in tenths per second would overflow Int64.
        monitor.record(.rotated(detents: 1_000_000_000, at: .milliseconds(10)))
        #expect(monitor.speedTenths(at: .milliseconds(20)) == Int.max)
        monitor.record(.rotated(detents: .max, at: .milliseconds(30)))
        monitor.record(.rotated(detents: .min, at: .milliseconds(40)))
        monitor.record(.rotated(detents: .min, at: .milliseconds(50)))
        #expect(monitor.clockwiseDetents == .max && monitor.counterclockwiseDetents == .max)
        #expect(monitor.netDetents == .min)
        _ = monitor.summary(at: .milliseconds(60))
        #expect(monitor.describe(.rotated(detents: .min, at: .zero)).hasSuffix("detents counterclockwise"))
    }
}
