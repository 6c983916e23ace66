import CrownVocabulary

/// What happened to the pager: returned by `PageNavigator.handle(_:)` and `advance(to:)`,
/// so the app can react (haptics, logging, a page's own action) without polling.
public enum PagerEvent: Hashable, Sendable {
    /// The current page changed: with the slide for a discrete step, at once while scrubbing.
    case pageChanged(to: Int, interaction: InteractionState, at: Timestamp)
    /// A tall page scrolled to `offset` pixels from its top.
    case scrolled(offset: Int, at: Timestamp)
    /// The crown turned past the first (−1) or last (+1) page: the content gave and sprang back.
    case bounced(direction: Int, at: Timestamp)
    /// A long press opened the list of page titles.
    case overviewOpened(at: Timestamp)
    /// The highlight in the list of page titles moved.
    case overviewSelected(page: Int, at: Timestamp)
    /// The list of page titles closed.
    case overviewClosed(at: Timestamp)
    /// A short press on a page with an action of its own: the app performs it.
    case pageAction(page: Int, at: Timestamp)
    /// The crown stopped turning: the interaction state went back to none.
    case idle(at: Timestamp)
    /// The automatic background plate finished fading.
    case backgroundHidden(at: Timestamp)
    /// A turn or press of the crown paused the timed pages.
    case timerPaused(at: Timestamp)
    /// The crown was left alone long enough: the timer started the current page's full time again.
    case timerResumed(at: Timestamp)
    /// The timer moved on to `to` (after the last page, back to the first).
    case autoAdvanced(to: Int, at: Timestamp)
    /// The last timed page's time ran out and the pages do not loop: the timer stopped.
    case timerFinished(at: Timestamp)
}

/// How much of the background plate shows at an instant.
public enum BackgroundPlate: Hashable, Sendable {
    /// No plate: dots on the dark screen.
    case hidden
    /// Fading: only the plate's outline, the last step before it goes (a 1-bit panel has no translucency).
    case fading
    /// The solid plate with the dots cut out of it.
    case shown
}
