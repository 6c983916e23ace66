import CrownVocabulary

/// A level a `Debouncer` accepted: the line settled at `level`, having first left its old level at `at`.
package struct DebouncedChange: Hashable, Sendable {
    /// The new settled level.
    package var level: Bool
    /// The first raw edge of the burst that ended at `level`: when the contact really moved.
    package var at: Timestamp

    /// A change to `level` at `at`.
    package init(level: Bool, at: Timestamp) {
        self.level = level
        self.at = at
    }
}

/// One line's raw edges to settled levels: a level counts once it has held for `window`.
///
/// A switch contact chatters for a few milliseconds when it closes or opens. The debouncer
/// accepts a new level only after the line has stayed there for the whole window, so chatter
/// shorter than the window never produces extra changes, and a spike that comes back within
/// the window produces none at all. The accepted change carries the time of the burst's first
/// edge, so a press is timed from when the contact first closed.
///
/// Time is a parameter: `feed` settles what the new edge's time proves stable; between
/// edges, call `advance(to:)` at `nextDeadline`. With a `window` of zero every edge passes
/// straight through: use that when the kernel debounces already (libgpiod 2's debounce period).
package struct Debouncer: Sendable {
    /// How long a level must hold to count.
    package let window: TimeSpan
    /// The settled level.
    package private(set) var level: Bool
    /// The line's level as last reported, settled or not.
    package private(set) var rawLevel: Bool
    /// Raw edges fed so far.
    package private(set) var rawEdges = 0
    /// Changes accepted so far.
    package private(set) var changes = 0
    private var lastEdge: Timestamp?
    private var burstStart: Timestamp?

    /// A debouncer whose line rests at `level`.
    package init(level: Bool, window: TimeSpan) {
        self.level = level
        self.rawLevel = level
        self.window = window < .zero ? .zero : window
    }

    /// Raw edges that did not become a change: the chatter filtered out.
    package var filteredEdges: Int { rawEdges - changes }

    /// When `advance(to:)` may next settle something, if anything is pending.
    package var nextDeadline: Timestamp? {
        guard burstStart != nil, let lastEdge else { return nil }
        return lastEdge + window
    }

    /// Feeds the line's new raw level at `instant`; returns a change this settles, if any.
    ///
    /// Edges must come in time order. A level equal to the last one (a missed edge) restarts the window.
    package mutating func feed(level newLevel: Bool, at instant: Timestamp) -> DebouncedChange? {
        let settled = advance(to: instant)
        rawEdges += 1
        rawLevel = newLevel
        lastEdge = instant
        if burstStart == nil, newLevel != level { burstStart = instant }
        return settled ?? advance(to: instant)
    }

    /// Settles the pending level if it has held for the window by `instant`.
    package mutating func advance(to instant: Timestamp) -> DebouncedChange? {
        guard let start = burstStart, let lastEdge, instant - lastEdge >= window else { return nil }
        burstStart = nil
        // The line came back to its settled level: the whole burst was a glitch.
        guard rawLevel != level else { return nil }
        level = rawLevel
        changes += 1
        return DebouncedChange(level: level, at: start)
    }
}
