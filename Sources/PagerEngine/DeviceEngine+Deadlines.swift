import CrownVocabulary
import PagerCore
import PagerGraphics
import PagerSettings
import SSD1306

/// When the engine wants the shell back: the pages that matter now, the pacer's decision, the
/// next deadline. Read-only views of its state.
extension DeviceEngine {
    /// The pages whose readings matter now: the current one and those a turn shows next.
    var nearbyPages: PageList {
        RefreshSchedule.neighbourhood(
            of: presenter.pager.currentPage, count: book.specs.count, wraps: configuration.crown.wrap)
    }

    /// The pages on the glass, whose refreshes alone may wake the shell: the current page, or none
    /// while the screen saver or the night has the panel off. A neighbour is read when the engine is awake
    /// anyway (a turn shows it), never woken for: an idle pager wakes only for what changes on the glass.
    var shownPages: PageList {
        var pages = PageList()
        guard book.specs.indices.contains(presenter.pager.currentPage), idleScreen != .off else {
            return pages
        }
        pages.append(presenter.pager.currentPage)
        return pages
    }

    /// When the shell must `tick` next although no input comes; nil: only input wakes the engine.
    package var nextDeadline: Timestamp? {
        guard !isStopped else { return nil }
        switch decision(at: now) {
        case .drawFrame:
            return health.isLost ? health.nextAttempt.map { max($0, now) } : now
        case .wait(let until):
            // Filling the rows off the glass goes on as soon as the bus is free, and stops when done.
            let fill = fillsOffGlass ? max(now, pacer.busFreeAt) : nil
            let earliest = Timestamp.earliest(Timestamp.earliest(until, fill), health.nextAttempt)
            return Timestamp.earliest(Timestamp.earliest(earliest, cameraDeadline), crownReportDeadline)
        }
    }

    /// Whether the screen saver leaves the panel alone: timed pages are moving on by themselves
    /// and `timer.dims_while_advancing` is off, or a notification shows.
    var holdsScreen: Bool {
        (!configuration.timer.dimsWhileAdvancing && presenter.navigator.isAutoAdvancing) || notifications.isShowing
    }

    /// What the pacer says at `instant`, with every deadline that is not input.
    func decision(at instant: Timestamp) -> FramePacer.Decision {
        // Deadlines after the last frame, not after now: one that passed while the shell slept
        // (the plate fading, a long press, the screen saver) is due now, not skipped.
        let after = min(instant, pacer.lastFrameAt ?? instant)
        // A dark panel shows no dot: the timer wakes it for its pages, not for the dot's steps.
        let pagerDeadline = presenter.navigator.nextDeadline(after: after, showsIndicator: screen != .off)
        // Taken one by one, not from a list: this runs every tick.
        var deadline = Timestamp.earliest(schedule.nextDeadline(near: shownPages), pagerDeadline)
        deadline = Timestamp.earliest(deadline, notifications.deadline)
        deadline = Timestamp.earliest(deadline, pushedValues.nextStaleAt)
        if !holdsScreen { deadline = Timestamp.earliest(deadline, saver.nextDeadline(after: after)) }
        deadline = Timestamp.earliest(deadline, Timestamp.earliest(actions.confirmationDeadline, homeDeadline))
        deadline = Timestamp.earliest(deadline, burnInDeadline(at: instant))
        deadline = Timestamp.earliest(deadline, nightDeadline(after: after))
        return pacer.decide(
            at: instant, animating: screen != .off && presenter.isAnimating(at: instant),
            nextDeadline: deadline)
    }
}
