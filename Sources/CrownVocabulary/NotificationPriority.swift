/// How much a notification may interrupt, as lcdproc's screen priorities and watchOS's passive,
/// active and time-sensitive interruption levels do: the one word of `crownpager notify
/// --priority`, the control socket's `priority=` field, MQTT's `notify` payload and the engine's queue.
public enum NotificationPriority: String, CaseIterable, Comparable, Hashable, Sendable {
    /// Waits in the queue, shown as a mark beside the page indicator until the person looks.
    case passive
    /// Slides in over the page and wakes a dimmed panel.
    case active
    /// Also wakes a switched-off panel, and stays until pressed away.
    case critical

    private var rank: Int {
        switch self {
        case .passive: return 0
        case .active: return 1
        case .critical: return 2
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}
