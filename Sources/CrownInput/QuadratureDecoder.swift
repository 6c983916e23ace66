import CrownVocabulary

/// How many transitions of the lines make one detent (one click) of the knob.
///
/// The kernel's `rotary-encoder` driver calls this `steps-per-period`: its 1, 2 and 4 are
/// our `.full`, `.half` and `.quarter`.
package enum QuadratureStepping: Hashable, Sendable, CaseIterable {
    /// Four transitions (a whole period) per detent: KY-040 and most EC11s (20 detents, 20 pulses).
    case full
    /// Two transitions per detent, resting at both 00 and 11: EC11s with 30 detents and 15 pulses.
    case half
    /// One transition per detent: encoders that rest on every state. Needs debounced lines.
    case quarter

    /// Transitions (quarter steps) per detent: 4, 2 or 1.
    package var transitionsPerDetent: Int {
        switch self {
        case .full: return 4
        case .half: return 2
        case .quarter: return 1
        }
    }
}

/// How the encoder is wired and how it clicks.
package struct QuadratureConfiguration: Hashable, Sendable {
    /// Transitions per detent.
    package var stepping: QuadratureStepping
    /// The lines' levels when the knob rests in a detent: both high for a KY-040 or an EC11 with pull-ups.
    package var restingState: QuadratureState
    /// Reports clockwise as negative: for a knob wired with A and B swapped, or mounted facing away.
    package var inverted: Bool

    /// A configuration; the defaults fit a KY-040 with A on CLK and B on DT.
    package init(
        stepping: QuadratureStepping = .full, restingState: QuadratureState = .bothHigh, inverted: Bool = false
    ) {
        self.stepping = stepping
        self.restingState = restingState
        self.inverted = inverted
    }
}

/// What the decoder has seen: the figures `crownpager doctor crown` shows.
package struct QuadratureStatistics: Hashable, Sendable {
    /// Detents reported clockwise (before `inverted` is applied).
    package var clockwiseDetents = 0
    /// Detents reported counterclockwise (before `inverted` is applied).
    package var counterclockwiseDetents = 0
    /// Valid transitions: quarter steps either way.
    package var transitions = 0
    /// Quarter steps taken straight back: contact chatter (a deliberate reversal counts once too).
    package var bounces = 0
    /// Changes of both lines at once: a missed edge, direction unknown, ignored.
    package var invalidTransitions = 0
    /// Edges that reported the level the line already had: an edge in between was missed.
    package var repeatedLevels = 0

    /// Statistics with every count at zero.
    package init() {}

    /// Glitches the decoder filtered out: bounces, impossible transitions and repeated levels.
    package var glitchesFiltered: Int { bounces + invalidTransitions + repeatedLevels }
}

/// Turns the encoder's line changes into whole detents, without inventing or losing any.
///
/// The decoder counts quarter steps (`QuadratureTransition`) since the last detent it
/// reported, and reports a detent only when that count reaches a whole detent in either
/// direction: the knob has completed a valid cycle into the next detent position. Like the
/// kernel's `rotary_encoder` driver arming itself halfway through a period, this gives a
/// full detent of hysteresis:
///
/// - Contact bounce flips one line back and forth, moving the count one quarter step back
///   and forth; after a detent has been reported, going back a quarter step and forward again
///   reports nothing, so bounce never invents a step (with two or four transitions per detent;
///   quarter stepping needs debounced lines, see `CrownDecoderConfiguration.lineDebounce`).
/// - A reversal counts from the detent last reported, so turning back one detent reports
///   exactly one detent back: no step is lost when the direction changes.
/// - Half a detent forward and back again nets zero quarter steps and reports nothing.
/// - An impossible transition (both lines at once) is ignored; the decoder then waits for the
///   next detent position to re-synchronise, reporting nothing until then (it may drop that
///   one detent, but never reports a wrong one).
package struct QuadratureDecoder: Sendable {
    /// Wiring and stepping.
    package let configuration: QuadratureConfiguration
    /// The lines' levels as last seen.
    package private(set) var state: QuadratureState
    /// Quarter steps since the last detent reported, between -(transitions per detent - 1) and +(… - 1).
    package private(set) var quarterSteps = 0
    /// False after an impossible transition (or a start between detents), until the knob reaches a detent position.
    package private(set) var isSynchronized: Bool
    /// What the decoder has seen so far.
    package private(set) var statistics = QuadratureStatistics()
    private var lastQuarterStep = 0

    /// A decoder whose lines currently read `state`; by default the knob rests in a detent.
    package init(configuration: QuadratureConfiguration = QuadratureConfiguration(), state: QuadratureState? = nil) {
        self.configuration = configuration
        let initial = state ?? configuration.restingState
        self.state = initial
        self.isSynchronized = false
        self.isSynchronized = isDetentPosition(initial)
    }

    /// Whether `state` is where the knob rests between detents, for this stepping and resting state.
    package func isDetentPosition(_ state: QuadratureState) -> Bool {
        let offset = (state.phase - configuration.restingState.phase + 4) % 4
        return offset % configuration.stepping.transitionsPerDetent == 0
    }

    /// Feeds one line's new level (an edge event); returns the detent it completes, if any.
    package mutating func update(_ line: QuadratureLine, level: Bool, at instant: Timestamp) -> CrownEvent? {
        let next = state.setting(line, to: level)
        guard next != state else {
            // The line already had this level: the opposite edge was lost (or merged by the kernel).
            statistics.repeatedLevels += 1
            return nil
        }
        return update(to: next, at: instant)
    }

    /// Feeds both lines' levels read at `instant` (sampled input); returns the detent it completes, if any.
    package mutating func update(to next: QuadratureState, at instant: Timestamp) -> CrownEvent? {
        let transition = QuadratureTransition(from: state, to: next)
        state = next
        switch transition {
        case .none:
            return nil
        case .invalid:
            statistics.invalidTransitions += 1
            lastQuarterStep = 0
            quarterSteps = 0
            isSynchronized = isDetentPosition(next)
            return nil
        case .clockwise, .counterclockwise:
            return step(transition.quarterSteps, at: instant)
        }
    }

    private mutating func step(_ delta: Int, at instant: Timestamp) -> CrownEvent? {
        statistics.transitions += 1
        if delta == -lastQuarterStep { statistics.bounces += 1 }
        lastQuarterStep = delta
        guard isSynchronized else {
            // Waiting for a detent position after a glitch: anchor there without reporting.
            if isDetentPosition(state) {
                isSynchronized = true
                quarterSteps = 0
            }
            return nil
        }
        quarterSteps += delta
        let perDetent = configuration.stepping.transitionsPerDetent
        guard abs(quarterSteps) >= perDetent else { return nil }
        let detents = quarterSteps > 0 ? 1 : -1
        quarterSteps = 0
        if detents > 0 { statistics.clockwiseDetents += 1 } else { statistics.counterclockwiseDetents += 1 }
        return .rotated(detents: configuration.inverted ? -detents : detents, at: instant)
    }
}
