import CrownVocabulary

/// A line of the crown: the encoder's A and B, and the push button.
package enum CrownLine: Hashable, Sendable {
    /// Encoder line A (CLK).
    case a
    /// Encoder line B (DT).
    case b
    /// The push button (SW).
    case button
}

/// One raw edge: `line` changed to `level` at `at`, as libgpiod's edge events report it.
package struct LineEdge: Hashable, Sendable {
    /// The line that changed.
    package var line: CrownLine
    /// Its new level: true is high.
    package var level: Bool
    /// When it changed (the kernel's CLOCK_MONOTONIC timestamp).
    package var at: Timestamp

    /// An edge of `line` to `level` at `at`.
    package init(line: CrownLine, level: Bool, at: Timestamp) {
        self.line = line
        self.level = level
        self.at = at
    }
}

/// How the crown's three lines are read.
package struct CrownDecoderConfiguration: Hashable, Sendable {
    /// The encoder's stepping, resting state and direction.
    package var quadrature: QuadratureConfiguration
    /// Debounce window for A and B: zero for full and half stepping (the decoder's hysteresis
    /// absorbs bounce), 2 ms for quarter stepping, or zero whenever the kernel debounces.
    package var lineDebounce: TimeSpan
    /// Debounce window for the button: zero when the kernel debounces it already.
    package var buttonDebounce: TimeSpan
    /// The button pulls its line low when pressed (a switch to ground with a pull-up), as on a KY-040.
    package var buttonActiveLow: Bool

    /// A configuration; `lineDebounce` defaults to what the stepping needs.
    package init(
        quadrature: QuadratureConfiguration = QuadratureConfiguration(), lineDebounce: TimeSpan? = nil,
        buttonDebounce: TimeSpan = .milliseconds(5), buttonActiveLow: Bool = true
    ) {
        self.quadrature = quadrature
        self.lineDebounce = lineDebounce ?? (quadrature.stepping == .quarter ? .milliseconds(2) : .zero)
        self.buttonDebounce = buttonDebounce
        self.buttonActiveLow = buttonActiveLow
    }
}

/// The crown's raw edges in, `CrownEvent` facts out: detents, presses and releases with their times.
///
/// Meaning (short or long press, pages per detent) is left to `CrownInterpreter`. Feed edges
/// in time order with `feed`; when no edge comes, call `advance(to:)` at `nextDeadline` so a
/// debounced level that has settled is reported without waiting for the next edge.
package struct CrownDecoder: Sendable {
    /// How the lines are read.
    package let configuration: CrownDecoderConfiguration
    /// The quadrature decoder, with its statistics.
    package private(set) var encoder: QuadratureDecoder
    /// The button's debouncer.
    package private(set) var button: Debouncer
    private var lineA: Debouncer
    private var lineB: Debouncer

    /// A decoder whose lines currently read `state` and `buttonLevel`; by default the knob rests and the button is up.
    package init(
        configuration: CrownDecoderConfiguration = CrownDecoderConfiguration(), state: QuadratureState? = nil,
        buttonLevel: Bool? = nil
    ) {
        self.configuration = configuration
        let initial = state ?? configuration.quadrature.restingState
        encoder = QuadratureDecoder(configuration: configuration.quadrature, state: initial)
        lineA = Debouncer(level: initial.a, window: configuration.lineDebounce)
        lineB = Debouncer(level: initial.b, window: configuration.lineDebounce)
        button = Debouncer(level: buttonLevel ?? configuration.buttonActiveLow, window: configuration.buttonDebounce)
    }

    /// Whether the button is down, after debouncing.
    package var isPressed: Bool { button.level != configuration.buttonActiveLow }

    /// Glitches filtered so far: the decoder's, plus the chatter the debouncers removed.
    package var glitchesFiltered: Int {
        encoder.statistics.glitchesFiltered + lineA.filteredEdges + lineB.filteredEdges + button.filteredEdges
    }

    /// The next instant at which `advance(to:)` may report something, if any.
    package var nextDeadline: Timestamp? {
        [lineA.nextDeadline, lineB.nextDeadline, button.nextDeadline].compactMap { $0 }.min()
    }

    /// Feeds one raw edge; returns the facts it (and the time it proves settled) completes, oldest first.
    package mutating func feed(_ edge: LineEdge) -> [CrownEvent] {
        var events = advance(to: edge.at)
        switch edge.line {
        case .a: if let change = lineA.feed(level: edge.level, at: edge.at) { apply(.a, change, into: &events) }
        case .b: if let change = lineB.feed(level: edge.level, at: edge.at) { apply(.b, change, into: &events) }
        case .button: if let change = button.feed(level: edge.level, at: edge.at) { apply(change, into: &events) }
        }
        return events
    }

    /// Reports levels that have settled by `instant`, oldest first.
    package mutating func advance(to instant: Timestamp) -> [CrownEvent] {
        var settled: [(line: CrownLine, change: DebouncedChange)] = []
        if let change = lineA.advance(to: instant) { settled.append((.a, change)) }
        if let change = lineB.advance(to: instant) { settled.append((.b, change)) }
        if let change = button.advance(to: instant) { settled.append((.button, change)) }
        var events: [CrownEvent] = []
        for (line, change) in settled.sorted(by: { $0.change.at < $1.change.at }) {
            switch line {
            case .a: apply(.a, change, into: &events)
            case .b: apply(.b, change, into: &events)
            case .button: apply(change, into: &events)
            }
        }
        return events
    }

    private mutating func apply(_ line: QuadratureLine, _ change: DebouncedChange, into events: inout [CrownEvent]) {
        if let event = encoder.update(line, level: change.level, at: change.at) { events.append(event) }
    }

    private func apply(_ change: DebouncedChange, into events: inout [CrownEvent]) {
        let pressed = change.level != configuration.buttonActiveLow
        events.append(pressed ? .pressed(at: change.at) : .released(at: change.at))
    }
}
