import CrownInput
import CrownVocabulary
import Testing

/// The kernel's `rotary-encoder` and `gpio-keys` events to crown facts.
@Suite struct InputEventTranslatorTests {
    typealias Code = InputEventCode

    func record(_ ms: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEventRecord {
        InputEventRecord(timestamp: .milliseconds(ms), type: type, code: code, value: value)
    }
    func report(_ ms: Int64) -> InputEventRecord { record(ms, Code.EV_SYN, Code.SYN_REPORT, 0) }

    @Test func relativeDetentsAndKeyEdgesComeOutAtTheirReport() {
        var translator = InputEventTranslator()
        #expect(translator.translate(record(1, Code.EV_REL, Code.REL_X, 1)) == [], "held until SYN_REPORT")
        #expect(translator.translate(report(1)) == [.rotated(detents: 1, at: .milliseconds(1))])
        let events = translator.translate([
            record(5, Code.EV_REL, Code.REL_X, -1), report(5),
            record(9, Code.EV_KEY, Code.KEY_ENTER, 1), report(9),
            record(400, Code.EV_KEY, Code.KEY_ENTER, 2), report(400),
            record(420, Code.EV_KEY, Code.KEY_ENTER, 0), report(420),
        ])
        #expect(
            events == [
                .rotated(detents: -1, at: .milliseconds(5)), .pressed(at: .milliseconds(9)),
                .released(at: .milliseconds(420)),
            ])
        #expect(translator.statistics.repeats == 1 && translator.statistics.packets == 5)
        #expect(!translator.isPressed)
    }

    @Test func otherAxesKeysAndTypesAreIgnored() {
        var translator = InputEventTranslator()
        let events = translator.translate([
            record(1, Code.EV_REL, Code.REL_Y, 1), record(1, Code.EV_KEY, 30, 1), record(1, 0x04, 4, 7), report(1),
        ])
        #expect(events == [])
        #expect(translator.statistics.ignored == 3)
    }

    @Test func afterSYN_DROPPEDTheIncompletePacketsAreDiscarded() {
        var translator = InputEventTranslator()
        let events = translator.translate([
            record(1, Code.EV_REL, Code.REL_X, 1),
            record(2, Code.EV_SYN, Code.SYN_DROPPED, 0),
            record(3, Code.EV_REL, Code.REL_X, 1), report(3),
            record(4, Code.EV_REL, Code.REL_X, 1), report(4),
        ])
        #expect(events == [.rotated(detents: 1, at: .milliseconds(4))])
        #expect(translator.statistics.droppedPackets == 1)
    }

    @Test func aReleaseWithoutAPressIsIgnored() {
        var translator = InputEventTranslator()
        #expect(translator.translate([record(1, Code.EV_KEY, Code.KEY_ENTER, 0), report(1)]) == [])
        #expect(
            translator.translate([
                record(2, Code.EV_KEY, Code.KEY_ENTER, 1), record(2, Code.EV_KEY, Code.KEY_ENTER, 1), report(2),
            ])
                == [.pressed(at: .milliseconds(2))])
    }

    @Test func invertedAndConfiguredCodes() {
        var translator = InputEventTranslator(
            configuration: InputEventConfiguration(axis: Code.REL_DIAL, keys: [103], inverted: true))
        let events = translator.translate([
            record(1, Code.EV_REL, Code.REL_DIAL, 2), record(1, Code.EV_KEY, 103, 1), report(1),
        ])
        #expect(events == [.rotated(detents: -2, at: .milliseconds(1)), .pressed(at: .milliseconds(1))])
    }

    @Test func anAbsoluteAxisGivesDifferencesTheShortWayRoundARollover() {
        var translator = InputEventTranslator(configuration: InputEventConfiguration(absoluteSteps: 24))
        let events = translator.translate([
            record(1, Code.EV_ABS, Code.REL_X, 22), report(1),
            record(2, Code.EV_ABS, Code.REL_X, 23), report(2),
            record(3, Code.EV_ABS, Code.REL_X, 0), report(3),
            record(4, Code.EV_ABS, Code.REL_X, 23), report(4),
        ])
        #expect(
            events == [
                .rotated(detents: 1, at: .milliseconds(2)), .rotated(detents: 1, at: .milliseconds(3)),
                .rotated(detents: -1, at: .milliseconds(4)),
            ])
    }
}
