import CrownVocabulary
import PagerCore
import PagerGraphics

/// Notifications: which one the overlay shows, what the crown does to it, when it goes, and
/// which ones the shell keeps across a restart. The state is `notifications`; the overlay is drawn
/// by the presenter, kept in step here whenever the shown one changes.
extension DeviceEngine {
    /// Whether the overlay shows a notification: the panel does not count as idle meanwhile.
    package var isShowingNotification: Bool { notifications.isShowing }

    /// Puts back the active and critical notifications a previous run kept (the shell read them
    /// from its state file); the first shows with the next input. Call before `.start`.
    package mutating func restoreNotifications(_ kept: [PagerNotification]) {
        // Within the queue's capacity, the newest kept (a file from an older run may hold more).
        let interrupting = kept.filter { $0.priority != .passive }.suffix(notifications.capacity)
        notifications.restore(Array(interrupting))
        notifications.persisted = notifications.kept
    }

    /// A notification arrived: queued, the oldest passive one dropped with a log line when the
    /// queue is full, and shown at once when nothing else is and its priority may interrupt.
    mutating func receive(_ notification: PagerNotification, into effects: inout Effects) {
        if let dropped = notifications.enqueue(notification) { effects.log.append(.notificationDropped(dropped)) }
        showNextNotification()
        syncWaitingMark()
    }

    /// The shown notification's timeout, if it passed, dismisses it; the next one that may
    /// interrupt comes (a panel woken since lets a waiting active one in).
    mutating func settleNotifications() {
        guard notifications.isShowing || !notifications.waiting.isEmpty else { return }
        if let deadline = notifications.deadline, deadline <= now { dismissNotification() }
        showNextNotification()
        // A reload makes the presenter afresh: the overlay and the mark go on the new one, in
        // the fonts it has now.
        if let shown = notifications.shown, presenter.overlay == nil {
            presenter.overlay = overlay(for: shown)
            pacer.invalidate()
        }
        syncWaitingMark()
    }

    /// Whether the crown's `event` went to the notifications rather than the pager: a press
    /// dismisses the shown one (its release goes with it), a turn scrolls its message and, past
    /// the end, dismisses it and goes on to page (not a critical one's: only a press ends that).
    /// With none shown, a turn or a press brings in the oldest passive one waiting.
    mutating func notificationTakes(_ event: CrownEvent) -> Bool {
        switch event {
        case .released:
            guard notifications.swallowsRelease else { return false }
            notifications.swallowsRelease = false
            return true
        case .pressed:
            if let shown = notifications.shown {
                // One that came this very instant was not seen yet: the press was meant for what was.
                if shown.since < now {
                    dismissNotification()
                    showNextNotification()
                }
            } else if !showWaitingPassive() {
                return false
            }
            notifications.swallowsRelease = true
            return true
        case .rotated(let detents, _):
            guard let shown = notifications.shown, let overlay = presenter.overlay else {
                return showWaitingPassive()
            }
            guard shown.since < now else { return true }
            let wanted = shown.scroll + detents
            if detents > 0, shown.scroll == overlay.lastScroll, shown.notification.priority != .critical {
                dismissNotification()
                showNextNotification()
                return false
            }
            scrollNotification(to: min(max(0, wanted), overlay.lastScroll))
            return true
        }
    }

    /// Sets `Effects.keepsNotifications` when the notifications a restart must bring back changed.
    mutating func noteKeptNotifications(in effects: inout Effects) {
        // This runs for every input: the list is made only after the queue changed, not for each
        // detent, tick or pushed value while a notification shows.
        guard notifications.takeKeptChange() else { return }
        let kept = notifications.kept
        guard kept != notifications.persisted else { return }
        effects.keepsNotifications = kept
        notifications.persisted = kept
    }

    /// Shows the first waiting critical or active notification when none shows: an active one
    /// wakes a dimmed panel and waits while the panel is off (the saver's or switched off
    /// remotely); a critical one wakes it from off too, and switches it on.
    private mutating func showNextNotification() {
        guard !notifications.isShowing, let index = notifications.nextInterrupting else { return }
        let isCritical = notifications.waiting[index].priority == .critical
        guard isCritical || wantedScreen != .off else { return }
        if isCritical { remoteDisplay.isSwitchedOff = false }
        _ = saver.activity(at: now)
        show(index)
    }

    /// Brings in the oldest passive notification waiting, when none shows; says whether it did.
    private mutating func showWaitingPassive() -> Bool {
        guard !notifications.isShowing, let index = notifications.nextPassive else { return false }
        show(index)
        return true
    }

    /// Puts the waiting notification at `index` on the overlay, sliding in from now.
    private mutating func show(_ index: Int) {
        notifications.show(index, at: now)
        guard let shown = notifications.shown else { return }
        presenter.overlay = overlay(for: shown)
        syncWaitingMark()
        pacer.invalidate()
    }

    /// The overlay that draws `shown` on this panel, in the title list's font.
    private func overlay(for shown: NotificationQueue.Shown) -> NotificationOverlay {
        // Kept as it came (the file that keeps it across a restart too); shown as a terminal shows it.
        NotificationOverlay(
            shown.notification.asTerminalShows, size: presenter.renderer.size, font: presenter.renderer.overviewFont,
            scroll: shown.scroll, since: shown.since)
    }

    /// Takes the shown notification off the overlay: the page shows again.
    private mutating func dismissNotification() {
        notifications.dismiss()
        // Shown until now: the panel's idle time starts here, not when it came.
        _ = saver.activity(at: now)
        presenter.overlay = nil
        syncWaitingMark()
        pacer.invalidate()
    }

    /// Shows the message from its line `line`.
    private mutating func scrollNotification(to line: Int) {
        guard notifications.shown?.scroll != line else { return }
        notifications.scroll(to: line)
        presenter.overlay?.scroll = line
        pacer.invalidate()
    }

    /// The mark beside the indicator while passive notifications wait and none shows.
    private mutating func syncWaitingMark() {
        let marks = !notifications.isShowing && notifications.hasWaitingPassive
        guard presenter.marksWaitingNotifications != marks else { return }
        presenter.marksWaitingNotifications = marks
        pacer.invalidate()
    }
}
