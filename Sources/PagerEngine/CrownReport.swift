import CrownVocabulary
import PagerCore

/// What the crown did, as MQTT reports it (Home Assistant's event entity, `[mqtt]` on): turns as
/// they come, with their detents; presses and long presses as the engine's own `CrownInterpreter`
/// takes them, so there is one long-press rule (`CrownConfiguration.longPressDuration`, 0.6 s): a long press is reported when
/// the button has been held that long, not at its release.
package enum CrownReport: Hashable, Sendable {
    /// Turned by `detents` (positive forward), as the knob reported them.
    case turned(detents: Int)
    /// A short press, at its release.
    case pressed
    /// Held for the long-press duration: reported then, while still held.
    case longPressed
}

extension DeviceEngine {
    /// Reports `event`, and the gestures it completes, in `effects` (MQTT only). Every fact counts,
    /// a wake-up turn or a press taken by a notification too: someone turned or pressed the knob.
    mutating func reportCrown(_ event: CrownEvent, into effects: inout Effects) {
        guard var reporter = crownReporter else { return }
        if case .rotated(let detents, _) = event, detents != 0 {
            effects.crownReports.append(.turned(detents: detents))
        }
        Self.report(reporter.advance(to: event.timestamp) + reporter.interpret(event), into: &effects)
        crownReporter = reporter
    }

    /// Reports a long press that completed by time alone, the button still held, at `now`.
    mutating func reportHeldCrown(into effects: inout Effects) {
        guard var reporter = crownReporter, reporter.isPressed else { return }
        Self.report(reporter.advance(to: now), into: &effects)
        crownReporter = reporter
    }

    /// The long press the reporter waits for, while the button is held; nil otherwise.
    var crownReportDeadline: Timestamp? {
        guard let reporter = crownReporter, reporter.isPressed else { return nil }
        return reporter.nextDeadline
    }

    private static func report(_ gestures: [CrownGesture], into effects: inout Effects) {
        for gesture in gestures {
            switch gesture {
            case .shortPress: effects.crownReports.append(.pressed)
            case .longPress: effects.crownReports.append(.longPressed)
            default: break
            }
        }
    }
}
