import LinuxHardware
import MockDisplay
import PagerEngine

/// What `PagerRun`'s loop keeps from one turn to the next, besides the run state.
struct PagerRunLoop {
    /// SIGINT, SIGTERM and SIGHUP; nil where nothing sends them (the tests end through the knob).
    let signals: TerminationSignals?
    /// The terminal in raw mode, for the keys (and the mock's glass), when standard input is one.
    let terminal: TerminalSession?
    /// Whether the panel answers, and when to try a lost one again.
    var health: DisplayHealth
    /// The glass as last drawn in the terminal.
    var mirror = GlassMirror()
    /// The keys read so far that do not make a command yet.
    var decoder = KeyDecoder()
    /// What the last sleep found readable and no turn has read yet; nil: ask poll(2) again.
    var ready: InputReadiness?

    /// The loop's memory at the start of a run.
    init(signals: TerminationSignals?, terminal: TerminalSession?, health: DisplayHealth) {
        self.signals = signals
        self.terminal = terminal
        self.health = health
    }

    /// The input descriptors in the order poll(2) gets them: the signals, the keys, the knob.
    func inputDescriptors(knob: [Int32]) -> [Int32] {
        (signals.map { [$0.descriptor] } ?? []) + (terminal.map { [$0.input.rawValue] } ?? []) + knob
    }

    /// Which inputs `flags` (poll(2)'s answer for `inputDescriptors(knob:)`, then other descriptors) marks readable.
    func readiness(_ flags: [Bool], knobCount: Int) -> InputReadiness {
        var rest = flags[...]
        let signal = signals != nil && rest.popFirst() == true
        let keys = terminal != nil && rest.popFirst() == true
        return InputReadiness(signal: signal, keys: keys, knob: rest.prefix(knobCount).contains(true))
    }
}

/// Which of a run's inputs have something to read.
struct InputReadiness: Hashable {
    /// A signal is pending.
    var signal = false
    /// The terminal has keys (or a lone Escape to flush).
    var keys = false
    /// The knob has facts.
    var knob = false

    /// Whether any input is readable.
    var any: Bool { signal || keys || knob }
}

/// What one turn of the run loop did.
struct RunTurn: Hashable {
    /// Pending input went into the state before anything else.
    var tookInput = false
    /// A frame was drawn: sent, found unchanged, or tried on a lost panel.
    var drewFrame = false
    /// The run is over: q, the knob's end, or a signal.
    var ended = false
    /// The signal that ended the run; nil when q or the knob did.
    var signal: Int32?
}
