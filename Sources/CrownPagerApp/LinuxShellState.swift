import CrownVocabulary
import GlassViews
import LinuxSystem
import PagerEngine
import PagerGraphics
import SSD1306

/// The panel a run drives: the display seam's three production uses as one enum, so the run
/// loop is one concrete type and a bus's failure is the app's error where it happens.
enum RunDisplay: DisplayInterface {
    /// The emulated panel of the terminal mock.
    case emulator(SSD1306Emulator)
    /// A panel on `/dev/i2c-N`.
    case i2c(I2CDisplayInterface<LinuxI2CBus>)
    /// A panel on spidev, D/C# (and RES#) on GPIO lines.
    case spi(SPIDisplayInterface)

    /// Sends the record to the panel; a failed write is the app's error, with the bus's errno.
    mutating func send(_ kind: DisplayRecordKind, _ bytes: ArraySlice<UInt8>) throws(CrownPagerError) {
        switch self {
        case .emulator(var emulator):
            emulator.send(kind, bytes)
            self = .emulator(emulator)
        case .i2c(var interface):
            defer { self = .i2c(interface) }
            do throws(I2CError) { try interface.send(kind, bytes) } catch { throw .display(error) }
        case .spi(let bus):
            do throws(SPIDisplayError) { try bus.send(kind, bytes) } catch { throw .spiDisplay(error) }
        }
    }

    /// The emulated panel's glass, to draw in the terminal; nil for a real panel.
    var glass: Bitmap? {
        guard case .emulator(let emulator) = self else { return nil }
        return emulator.glass
    }
}

/// What `LinuxShell` keeps from one turn to the next, besides the engine: the display's
/// interface, the signals, the terminal and what the last sleep found.
struct LinuxShellState {
    /// The panel, recording what it accepted for the trace.
    var display: TracingDisplay<RunDisplay>
    /// SIGINT, SIGTERM and SIGHUP; nil where nothing sends them (the tests end through the knob).
    let signals: TerminationSignals?
    /// The terminal in raw mode, its keys a crown (and the mock's glass drawn there), when standard input is one.
    let terminal: TerminalCrownSource?
    /// The glass as last drawn in the terminal.
    var mirror = GlassMirror()
    /// What the last sleep found readable and no turn has read yet; nil: ask poll(2) again.
    var ready: InputReadiness?
    /// What systemd hears of the run: ready, the status, the watchdog's pings (nothing outside systemd).
    var service = ServiceNotifier()
    /// The monotonic clock, read around the writes to a real panel; nil for an emulated one,
    /// whose writes take no time: its bus time is modelled at the configuration's clock.
    let stopwatch: (() -> Timestamp)?

    /// The loop's memory at the start of a run; `stopwatch` times the writes of a real panel.
    init(
        display: RunDisplay, signals: TerminationSignals?, terminal: TerminalCrownSource?,
        stopwatch: (() -> Timestamp)? = nil
    ) {
        self.display = TracingDisplay(display)
        self.signals = signals
        self.terminal = terminal
        self.stopwatch = stopwatch
    }

    /// Sends `records` in order and returns how long that took, for the engine's
    /// `.written(took:)`: on a real panel the time around the write(2) calls, which block until
    /// the bus has carried the bytes (and include the kernel's own time, as they should: the
    /// pacer paces what a write really costs); on the emulator the bus time at `hertz`.
    mutating func write(_ records: DisplayBatch, modelledAt hertz: Int) throws(CrownPagerError) -> TimeSpan {
        guard let stopwatch else {
            try display.send(records)
            return FramePacer.busTime(bytes: records.framedByteCount, transactions: records.count, hertz: hertz)
        }
        let started = stopwatch()
        try display.send(records)
        return stopwatch() - started
    }

    /// The input descriptors in the order poll(2) gets them: the signals, the keys, the knob.
    func inputDescriptors(knob: [Int32]) -> [Int32] {
        (signals.map { [$0.descriptor] } ?? []) + (terminal?.wakeup.descriptors ?? []) + knob
    }

    /// Which inputs `flags` (poll(2)'s answer for `inputDescriptors(knob:)`, the `control`
    /// socket's descriptors, then other descriptors) marks readable.
    func readiness(_ flags: [Bool], knobCount: Int, control: [Int32] = []) -> InputReadiness {
        var rest = flags[...]
        let signal = signals != nil && rest.popFirst() == true
        let keys = terminal != nil && rest.popFirst() == true
        let controlReady = zip(control, rest.dropFirst(knobCount)).filter { $0.1 }.map { $0.0 }
        return InputReadiness(
            signal: signal, keys: keys, knob: rest.prefix(knobCount).contains(true), control: Set(controlReady))
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
    /// The control socket's descriptors with a connection or bytes waiting.
    var control: Set<Int32> = []

    /// Whether any input is readable.
    var any: Bool { signal || keys || knob || !control.isEmpty }
}

/// What one turn of the run loop did.
struct RunTurn: Hashable {
    /// Pending input went into the engine before the tick.
    var tookInput = false
    /// Transfers went to the display.
    var drewFrame = false
    /// The run is over: q, the knob's end, or a signal.
    var ended = false
    /// The signal that ended the run; nil when q or the knob did.
    var signal: ProcessSignal?
}
