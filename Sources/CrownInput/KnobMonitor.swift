import CrownVocabulary

/// Live figures of a knob for `crownpager doctor crown`: detents, direction, speed, presses, glitches.
///
/// It only aggregates facts; the clock is a parameter, so the figures a test sees are exact.
package struct KnobMonitor: Sendable {
    /// Detents counted for the speed: those within this span before the instant asked about.
    package let speedWindow: TimeSpan
    /// Detents clockwise minus counterclockwise.
    package private(set) var netDetents = 0
    /// Detents clockwise.
    package private(set) var clockwiseDetents = 0
    /// Detents counterclockwise.
    package private(set) var counterclockwiseDetents = 0
    /// Presses of the button.
    package private(set) var presses = 0
    /// Whether the button is down.
    package private(set) var isPressed = false
    /// How long the last completed press lasted.
    package private(set) var lastPressDuration: TimeSpan?
    /// The sign of the last turn: +1 clockwise, -1 counterclockwise, 0 before any.
    package private(set) var lastDirection = 0
    /// Times the direction changed between one detent and the next.
    package private(set) var reversals = 0
    /// Glitches the decoder filtered, as its source reports them.
    package var glitchesFiltered = 0
    /// Facts recorded.
    package private(set) var events = 0
    private var recentDetents: [(at: Timestamp, count: Int)] = []
    private var pressStart: Timestamp?

    /// A monitor at rest; speed is averaged over `speedWindow`.
    package init(speedWindow: TimeSpan = .seconds(1)) {
        self.speedWindow = speedWindow > .zero ? speedWindow : .seconds(1)
    }

    /// Adds one fact.
    package mutating func record(_ event: CrownEvent) {
        events += 1
        switch event {
        case .rotated(let detents, let at):
            guard detents != 0 else { return }
            netDetents = saturatingSum(netDetents, detents)
            if detents > 0 {
                clockwiseDetents = saturatingSum(clockwiseDetents, detents)
            } else {
                counterclockwiseDetents = saturatingSum(counterclockwiseDetents, saturatingNegation(detents))
            }
            let direction = detents > 0 ? 1 : -1
            if lastDirection != 0, direction != lastDirection { reversals += 1 }
            lastDirection = direction
            recentDetents.append((at, saturatingMagnitude(detents)))
            forget(before: at - speedWindow)
        case .pressed(let at):
            guard !isPressed else { return }
            isPressed = true
            presses += 1
            pressStart = at
        case .released(let at):
            guard isPressed else { return }
            isPressed = false
            if let start = pressStart { lastPressDuration = at - start }
            pressStart = nil
        }
    }

    /// Detents per second over the window ending at `instant`, in tenths (35 is 3.5 detents/s).
    package func speedTenths(at instant: Timestamp) -> Int {
        let from = instant - speedWindow
        let count = recentDetents.reduce(0) { $1.at > from && $1.at <= instant ? saturatingSum($0, $1.count) : $0 }
        // A device that reports billions of detents at once would overflow the product: held at the top.
        let (scaled, overflow) = Int64(count).multipliedReportingOverflow(by: 10_000_000_000)
        return overflow ? Int.max : Int(clamping: scaled / speedWindow.nanoseconds)
    }

    /// `clockwise`, `counterclockwise` or `still`.
    package var directionName: String {
        lastDirection > 0 ? "clockwise" : lastDirection < 0 ? "counterclockwise" : "still"
    }

    /// One line of every figure, e.g. `detents +3 (cw 4, ccw 1) · last clockwise · 2.0/s · presses 1 (up) · glitches filtered 6`.
    package func summary(at instant: Timestamp) -> String {
        let speed = speedTenths(at: instant)
        let net = netDetents > 0 ? "+\(netDetents)" : "\(netDetents)"
        var text =
            "detents \(net) (cw \(clockwiseDetents), ccw \(counterclockwiseDetents)) \u{B7} last \(directionName)"
        text += " \u{B7} \(speed / 10).\(speed % 10)/s \u{B7} presses \(presses) (\(isPressed ? "down" : "up")"
        if let duration = lastPressDuration, !isPressed { text += ", last \(duration.milliseconds) ms" }
        text += ") \u{B7} glitches filtered \(glitchesFiltered)"
        return text
    }

    /// A fact in words, e.g. `+1 detent clockwise`, `pressed`, `released after 120 ms`.
    package func describe(_ event: CrownEvent) -> String {
        switch event {
        case .rotated(let detents, _):
            let sign = detents > 0 ? "+" : ""
            let unit = detents == 1 || detents == -1 ? "detent" : "detents"
            return "\(sign)\(detents) \(unit) \(detents > 0 ? "clockwise" : "counterclockwise")"
        case .pressed:
            return "pressed"
        case .released:
            return lastPressDuration.map { "released after \($0.milliseconds) ms" } ?? "released"
        }
    }

    private mutating func forget(before instant: Timestamp) {
        if let keep = recentDetents.firstIndex(where: { $0.at > instant }) {
            recentDetents.removeFirst(keep)
        } else {
            recentDetents.removeAll()
        }
    }
}
