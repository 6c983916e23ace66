import CrownVocabulary

extension PageNavigator {
    /// Lets time pass to `instant`: reports long presses, idle, the plate fading and timed pages moving on.
    public mutating func advance(to instant: Timestamp) -> [PagerEvent] {
        var events: [PagerEvent] = []
        for gesture in interpreter.advance(to: instant) { events += apply(gesture) }
        if !backgroundHiddenReported, let hidden = backgroundHiddenInstant, instant >= hidden {
            backgroundHiddenReported = true
            events.append(.backgroundHidden(at: hidden))
        }
        if overview == nil { events += advanceTimer(to: instant) }
        settle(at: instant)
        return events
    }

    /// The next instant after `instant` at which `advance(to:)` may report something, or a
    /// frame may look different without input (the plate fading, the timer's dot filling).
    /// Without `showsIndicator` (a dark panel) the dot's steps are left out: only what happens counts.
    public func nextDeadline(after instant: Timestamp, showsIndicator: Bool = true) -> Timestamp? {
        // The earliest after `instant`, taken one by one rather than from an array: asked every tick.
        var earliest: Timestamp?
        func consider(_ deadline: Timestamp?) {
            guard let deadline, deadline > instant else { return }
            earliest = Timestamp.earliest(earliest, deadline)
        }
        consider(interpreter.nextDeadline)
        if style.backgroundStyle == .automatic, let last = lastInteraction {
            consider(last + configuration.backgroundLinger)
            consider(last + configuration.backgroundLinger + configuration.backgroundFade)
        }
        consider(timerDeadline(after: instant, showsIndicator: showsIndicator))
        return earliest
    }

    /// True while something moves by itself at `instant` (a slide, a scroll, a bounce): frames must keep coming.
    public func isAnimating(at instant: Timestamp) -> Bool {
        !pager.isSettled(at: instant) || !scroll.isSettled(at: instant) || !(rubberBand?.isDone(at: instant) ?? true)
            || !(nudge?.isDone(at: instant) ?? true)
    }

    /// How much of the background plate shows at `instant`.
    public func backgroundPlate(at instant: Timestamp) -> BackgroundPlate {
        switch style.backgroundStyle {
        case .prominent: return .shown
        case .minimal: return .hidden
        case .automatic:
            guard let last = lastInteraction, instant >= last else { return .hidden }
            let since = instant - last
            if since < configuration.backgroundLinger { return .shown }
            return since < configuration.backgroundLinger + configuration.backgroundFade ? .fading : .hidden
        }
    }

    var backgroundHiddenInstant: Timestamp? {
        guard style.backgroundStyle == .automatic, let last = lastInteraction else { return nil }
        return last + configuration.backgroundLinger + configuration.backgroundFade
    }

    /// Drops finished animations.
    mutating func settle(at instant: Timestamp) {
        pager.settle(at: instant)
        if let band = rubberBand, band.isDone(at: instant) { rubberBand = nil }
        // A nudge held by detents short of a page stays; one back in place goes.
        if let nudge, nudge.to == 0, nudge.isDone(at: instant) { self.nudge = nil }
    }
}
