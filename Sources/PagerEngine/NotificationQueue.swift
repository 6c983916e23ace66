import CrownVocabulary

/// The notifications the engine holds: those waiting, in arrival order, and the one the overlay
/// shows, with its scroll and when it dismisses itself. Pure state; `DeviceEngine` decides.
package struct NotificationQueue: Hashable, Sendable {
    /// The one on the overlay.
    package struct Shown: Hashable, Sendable {
        /// What it says.
        package var notification: PagerNotification
        /// When it began to slide in.
        package var since: Timestamp
        /// The message's first line on the overlay, from 0.
        package var scroll = 0
        /// When it dismisses itself; nil for a critical one, which stays until pressed.
        package var dismissesAt: Timestamp?
    }

    /// How long a passive or active notification without its own timeout stays on the overlay.
    package static let defaultTimeout = TimeSpan.seconds(10)
    /// How many notifications may wait; past it the oldest passive one goes first.
    package static let defaultCapacity = 8

    /// How many may wait before one is dropped.
    package var capacity: Int
    /// Those not shown yet, oldest first.
    package private(set) var waiting: [PagerNotification] = []
    /// The one on the overlay, if any.
    package private(set) var shown: Shown?
    /// The notifications last given to the shell to keep across a restart.
    package var persisted: [PagerNotification] = []
    /// Whether the crown's next release belongs to the press that dismissed or brought in a
    /// notification, so the pager never sees half a press.
    package var swallowsRelease = false
    /// Whether `kept` may differ since `takeKeptChange()` last said so: what was queued, shown,
    /// dismissed or restored since. Scrolling and time change nothing kept.
    private var keptMayHaveChanged = false

    /// An empty queue where at most `capacity` notifications wait.
    package init(capacity: Int = defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    /// Whether the overlay shows a notification.
    ///
    /// A pattern, not `shown != nil`: `Shown` is Equatable, so `!=` compares whole values (its
    /// strings and all), which callgrind counted at about 4,000 instructions a clock tick (50x
    /// against luma.oled became 48x).
    package var isShowing: Bool {
        if case .some = shown { return true }
        return false
    }

    /// Whether a passive notification waits: the mark beside the indicator says so.
    package var hasWaitingPassive: Bool { waiting.contains { $0.priority == .passive } }

    /// Queues `notification`; returns the one dropped to keep within `capacity`: the oldest
    /// passive one, else the oldest active one, else the oldest (a critical one).
    package mutating func enqueue(_ notification: PagerNotification) -> PagerNotification? {
        waiting.append(notification)
        keptMayHaveChanged = true
        guard waiting.count > capacity else { return nil }
        let victim =
            waiting.firstIndex { $0.priority == .passive } ?? waiting.firstIndex { $0.priority == .active } ?? 0
        return waiting.remove(at: victim)
    }

    /// The index of the waiting notification to show next without being asked: the first critical
    /// one, else the first active one. Passive ones wait until the person turns or presses.
    package var nextInterrupting: Int? {
        waiting.firstIndex { $0.priority == .critical } ?? waiting.firstIndex { $0.priority == .active }
    }

    /// The index of the oldest waiting passive notification.
    package var nextPassive: Int? { waiting.firstIndex { $0.priority == .passive } }

    /// Takes the waiting notification at `index` onto the overlay from `instant`.
    package mutating func show(_ index: Int, at instant: Timestamp) {
        let notification = waiting.remove(at: index)
        keptMayHaveChanged = true
        let timeout = notification.timeout ?? Self.defaultTimeout
        shown = Shown(
            notification: notification, since: instant,
            dismissesAt: notification.priority == .critical ? nil : instant + timeout)
    }

    /// Takes the shown notification off the overlay; returns it.
    @discardableResult
    package mutating func dismiss() -> PagerNotification? {
        defer { shown = nil }
        keptMayHaveChanged = true
        return shown?.notification
    }

    /// Moves the shown message's first line to `line`.
    package mutating func scroll(to line: Int) {
        shown?.scroll = max(0, line)
    }

    /// Puts `notifications` back in the queue, before those that came since (a restart).
    package mutating func restore(_ notifications: [PagerNotification]) {
        waiting = notifications + waiting
        keptMayHaveChanged = true
    }

    /// Whether `kept` may have changed since the last call; the next call says false until it may again.
    package mutating func takeKeptChange() -> Bool {
        defer { keptMayHaveChanged = false }
        return keptMayHaveChanged
    }

    /// The active and critical notifications not dismissed yet, the shown one first: what
    /// survives a restart of the service.
    package var kept: [PagerNotification] {
        var kept: [PagerNotification] = []
        if let shown, shown.notification.priority != .passive { kept.append(shown.notification) }
        kept += waiting.filter { $0.priority != .passive }
        return kept
    }

    /// When the shown notification dismisses itself; nil when none will.
    package var deadline: Timestamp? { shown?.dismissesAt }
}
