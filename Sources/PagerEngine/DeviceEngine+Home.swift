import CrownVocabulary
import PagerCore
import PagerSettings

/// When the pager goes back to its home page by itself (`pager.home`, `pager.return_home_after`).
struct HomeReturn: Hashable, Sendable {
    /// The home page's index.
    var page: Int
    /// How long without crown input before returning; nil never.
    var after: TimeSpan?
    /// When the idle spell that began with the last crown input ends; nil once it has been used.
    var dueAt: Timestamp?

    /// The return `configuration` asks for, its idle spell starting at `start`.
    init(_ configuration: Configuration, start: Timestamp) {
        page = configuration.homeIndex
        after = configuration.pager.returnHomeAfter
        dueAt = after.map { start + $0 }
    }

    /// Crown input at `instant`: a new idle spell.
    mutating func restart(at instant: Timestamp) {
        dueAt = after.map { instant + $0 }
    }
}

extension DeviceEngine {
    /// When the pager goes home by itself; nil when it is home already, on a `stay` page, or the
    /// idle spell was used. Once a spell: with timed pages the timer moves on from home as before.
    var homeDeadline: Timestamp? {
        guard let due = home.dueAt else { return nil }
        let current = presenter.pager.currentPage
        guard current != home.page || presenter.navigator.overview != nil else { return nil }
        guard book.specs.indices.contains(current), !book.specs[current].stay else { return nil }
        return due
    }

    /// At the end of an idle spell: home, as a slide while the panel is on, at once while it is off
    /// (nothing is drawn for a dark panel). Returns whether the pager moved.
    mutating func returnHomeIfIdle(into effects: inout Effects) -> Bool {
        guard let due = home.dueAt, due <= now else { return false }
        // A notification shown is not idle time: the spell starts again once it goes.
        guard !isShowingNotification else {
            home.restart(at: now)
            return false
        }
        guard homeDeadline != nil else {
            home.dueAt = nil
            return false
        }
        home.dueAt = nil
        let events = presenter.navigator.goToPage(home.page, at: now, animated: idleScreen != .off)
        act(on: events, into: &effects)
        return !events.isEmpty
    }
}
