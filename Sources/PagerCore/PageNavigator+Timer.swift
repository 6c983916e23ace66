import CrownVocabulary

extension PageNavigator {
    /// True while timed pages move on by themselves: the timer runs on a timed current page and
    /// the title list is closed (the screen saver leaves such a panel alone, unless told otherwise).
    public var isAutoAdvancing: Bool {
        overview == nil && !isTimerHeld && timer.isRunning && currentPageDuration != nil
    }

    /// When a paused timer starts again by itself: `timerResumeDelay` after the last turn or press; nil: never.
    public var timerResumeInstant: Timestamp? {
        guard timer.isPaused, let delay = configuration.timerResumeDelay, let last = lastInteraction else { return nil }
        return last + delay
    }

    /// How much of the current timed page's time has passed at `instant` (0 to 1), or nil when it is not timed.
    public func timerProgress(at instant: Timestamp) -> Double? {
        currentPageDuration.map { timer.progress(at: instant, duration: $0) }
    }

    /// How the current dot shows the timer at `instant`; nil for the plain solid dot (the page is
    /// not timed, or the timer finished on the last page).
    public func timerLook(at instant: Timestamp) -> TimerLook? {
        guard overview == nil else { return nil }
        return currentPageTimerLook(at: instant)
    }

    /// How the current page's timer looks at `instant`, the title list open or not: the list marks
    /// the current page's row with it (the dots there stand for the selection). Nil when not timed or finished.
    public func currentPageTimerLook(at instant: Timestamp) -> TimerLook? {
        guard let duration = currentPageDuration else { return nil }
        if isTimerHeld, timer.phase != .finished { return .paused }
        switch timer.phase {
        case .running:
            let steps = timerSteps
            return .running(step: timer.step(at: instant, duration: duration, steps: steps), steps: steps)
        case .paused: return .paused
        case .finished: return nil
        }
    }

    /// Into how many steps the current dot's filling divides the page's time: one per row whose filling changes it.
    public var timerSteps: Int { style.timerSteps(forPage: currentPage) }

    /// Starts timed pages again at once, with the current page's full time (UIKit's `resumeTimer`).
    public mutating func resumeTimer(at instant: Timestamp) { timer.resume(at: instant) }

    /// Holds timed pages where they are (the night schedule), or lets them go: while held no page
    /// moves on and the timer asks for no deadline, whatever the crown does; let go, the current
    /// page's full time starts at `instant`. Holding what is held, or letting go what is not, does nothing.
    public mutating func holdTimer(_ held: Bool, at instant: Timestamp) {
        guard held != isTimerHeld else { return }
        isTimerHeld = held
        if !held, timer.phase != .finished { timer.resume(at: instant) }
    }

    /// Takes over a pause from `old`, the controller a reload replaces, when both show the same
    /// page and this one has timed pages: the timer stays paused and resumes as it would have,
    /// `timerResumeDelay` after the turn or press that paused it. Otherwise this timer is kept.
    public mutating func keepPause<OldPage>(of old: PageNavigator<OldPage>) {
        guard old.timer.isPaused, old.currentPage == currentPage, hasTimedPages else { return }
        timer.pause()
        lastInteraction = old.lastInteraction
    }

    /// Resumes a paused timer when its time comes; moves a timed page on when its time runs out,
    /// to the next page, to the first after the last, or not at all when the pages do not loop.
    mutating func advanceTimer(to instant: Timestamp) -> [PagerEvent] {
        guard !isTimerHeld else { return [] }
        var events: [PagerEvent] = []
        if let resume = timerResumeInstant, instant >= resume {
            timer.resume(at: resume)
            events.append(.timerResumed(at: resume))
        }
        guard let duration = currentPageDuration, let due = timer.deadline(duration: duration), instant >= due else {
            return events
        }
        let isLast = currentPage + 1 >= pager.numberOfPages
        if isLast, !configuration.resetsToInitialPageAfterEnd {
            timer.finish()
            events.append(.timerFinished(at: due))
            return events
        }
        _ = show(isLast ? 0 : currentPage + 1, at: due, animated: true, interaction: .none)
        // More than the new page's time late (the device slept): its time starts now, not in the past.
        let isLate = currentPageDuration.map { due + $0 <= instant } ?? false
        timer.restart(at: isLate ? instant : due)
        events.append(.autoAdvanced(to: currentPage, at: due))
        return events
    }

    /// The timer's next deadline after `instant`: the dot's next step (unless the indicator does
    /// not show) or the page's end while running, the resume while paused; nothing once finished
    /// or while the title list is open or the timer is held.
    public func timerDeadline(after instant: Timestamp, showsIndicator: Bool = true) -> Timestamp? {
        guard overview == nil, !isTimerHeld else { return nil }
        switch timer.phase {
        case .paused: return timerResumeInstant
        case .finished: return nil
        case .running:
            guard let duration = currentPageDuration, let due = timer.deadline(duration: duration) else { return nil }
            // A capsule (a tall page) or a hidden indicator shows no steps: only the end matters then.
            let showsSteps =
                showsIndicator && !scroll.isScrollable && !(style.hidesForSinglePage && pager.numberOfPages == 1)
            guard showsSteps else { return due }
            return timer.stepDeadline(after: instant, duration: duration, steps: timerSteps) ?? due
        }
    }
}

extension CrownEvent {
    /// Whether a person did something: a turn of at least a detent, a press or a release.
    var isInteraction: Bool {
        if case .rotated(let detents, _) = self { return detents != 0 }
        return true
    }
}
