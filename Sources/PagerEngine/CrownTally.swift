import CrownVocabulary

/// What the crown did over a run: the detents and presses that reached the engine, and how many it applied.
///
/// The run's last log line says it, so a soak (Scripts/dev/soak.sh) or an owner can compare the detents
/// the knob made with the detents the pager took: a detent that woke a dimmed screen is counted but
/// not applied, as on the watch.
package struct CrownTally: Hashable, Sendable {
    /// Detents turned clockwise, towards later pages.
    package private(set) var detentsForward = 0
    /// Detents turned counterclockwise, towards earlier pages.
    package private(set) var detentsBack = 0
    /// Detents handed to the pager (the rest woke the screen).
    package private(set) var detentsApplied = 0
    /// Presses of the crown's button.
    package private(set) var presses = 0

    /// No detents, no presses.
    package init() {}

    /// Every detent, in either direction.
    package var detents: Int { saturatingSum(detentsForward, detentsBack) }

    /// Counts `event`; `applied` says whether the pager took it.
    package mutating func count(_ event: CrownEvent, applied: Bool) {
        switch event {
        case .rotated(let detents, _):
            let size = saturatingMagnitude(detents)
            if detents > 0 { detentsForward = saturatingSum(detentsForward, size) }
            if detents < 0 { detentsBack = saturatingSum(detentsBack, size) }
            if applied { detentsApplied = saturatingSum(detentsApplied, size) }
        case .pressed:
            presses = saturatingSum(presses, 1)
        case .released:
            break
        }
    }
}
