import CrownInput
import CrownVocabulary
import GlassViews
import LinuxSystem
import PagerCore
import PagerEngine
import PagerSettings

/// A crown source a person reads about: what it reads, and the glitches it filtered.
package protocol DescribedCrownSource: CrownSource {
    /// What is being read, for the first line of output.
    var sourceDescription: String { get }
    /// Glitches the source filtered so far.
    var glitchesFiltered: Int { get }
}

/// The knob as the kernel's `rotary-encoder` and `gpio-keys` drivers report it, from `/dev/input/eventN`.
package final class EvdevCrownSource: DescribedCrownSource {
    private let device: InputEventDevice
    private var translator: InputEventTranslator
    /// The translator's settings, as asked for (to open the device again the same way).
    package let configuration: InputEventConfiguration

    /// Opens `path`; the error names the path and the fix (the `input` group, the overlays).
    package init(path: String, configuration: InputEventConfiguration = InputEventConfiguration())
        throws(InputEventError)
    {
        device = try InputEventDevice(path: path)
        translator = InputEventTranslator(configuration: configuration)
        self.configuration = configuration
    }

    /// The device's path.
    package var path: String { device.path }
    /// Whether it is the kernel's input device (not a FIFO or a recording): one that can come back.
    package var isInputDevice: Bool { device.usesMonotonicClock }

    package var sourceDescription: String {
        let clock = device.usesMonotonicClock ? "" : " (not an input device: timestamps as written)"
        return device.path + (device.name.map { " \"\($0)\"" } ?? "") + clock
    }

    /// Packets the kernel dropped (SYN_DROPPED): the kernel filters bounce itself.
    package var glitchesFiltered: Int { translator.statistics.droppedPackets }

    /// The device's descriptor; the kernel debounces and times the facts, so nothing settles later.
    package var wakeup: CrownWakeup { CrownWakeup(descriptors: [device.pollDescriptor]) }

    package func facts(at now: Timestamp) throws(InputEventError) -> [CrownEvent]? {
        translator.translate(try device.read(timeoutMilliseconds: 0))
    }
}

/// The terminal's keys as a crown (`TerminalKeys`): the mock's, a panel's run's when standard
/// input is a terminal, and the doctor's without hardware.
package final class TerminalCrownSource: DescribedCrownSource {
    /// The terminal, in raw mode until `restore()`.
    package let terminal: TerminalSession
    /// The keys read so far.
    package private(set) var keys: TerminalKeys

    /// Puts the terminal in raw mode (writing `enterSequence`) until `restore()` (writing `leaveSequence`).
    package init(longPressDuration: TimeSpan, enterSequence: String = "", leaveSequence: String = "")
        throws(TerminalError)
    {
        terminal = try TerminalSession()
        try terminal.begin(enterSequence: enterSequence, leaveSequence: leaveSequence)
        keys = TerminalKeys(longPressDuration: longPressDuration)
    }

    /// Gives the terminal back as it was.
    package func restore() { terminal.restore() }

    package var sourceDescription: String { "the keyboard (Down/j next, Up/k back, Enter press, q quits)" }
    package var glitchesFiltered: Int { 0 }

    /// Standard input; a lone Escape is flushed when the next read finds nothing.
    package var wakeup: CrownWakeup { CrownWakeup(descriptors: [terminal.input.rawValue]) }

    /// The keys' facts; nil once q (or Ctrl-C, Ctrl-D) came.
    package func facts(at now: Timestamp) throws(TerminalError) -> [CrownEvent]? {
        let events = keys.feed(try terminal.readInput(timeoutMilliseconds: 0), at: now)
        return keys.quit ? nil : events
    }

    /// Whether `r` or Ctrl-L asked for a repaint since the last call.
    package func takeRedraw() -> Bool { keys.takeRedraw() }
}

/// The knob a run reads, whichever it is: one concrete type for the shell, without existentials.
package enum Knob: DescribedCrownSource {
    /// A quadrature encoder and button on GPIO lines.
    case gpio(GPIOCrownSource)
    /// The kernel's input device.
    case evdev(EvdevCrownSource)
    /// The terminal's keys (the doctor without hardware; a run reads them beside its knob).
    case keyboard(TerminalCrownSource)
    /// A crown script on the run's clock.
    case script(ScriptCrownSource)

    package var sourceDescription: String {
        switch self {
        case .gpio(let source): return source.sourceDescription
        case .evdev(let source): return source.sourceDescription
        case .keyboard(let source): return source.sourceDescription
        case .script: return "a crown script"
        }
    }

    package var glitchesFiltered: Int {
        switch self {
        case .gpio(let source): return source.glitchesFiltered
        case .evdev(let source): return source.glitchesFiltered
        case .keyboard, .script: return 0
        }
    }

    package var wakeup: CrownWakeup {
        switch self {
        case .gpio(let source): return source.wakeup
        case .evdev(let source): return source.wakeup
        case .keyboard(let source): return source.wakeup
        case .script(let source): return source.wakeup
        }
    }

    package mutating func facts(at now: Timestamp) throws(CrownPagerError) -> [CrownEvent]? {
        switch self {
        case .gpio(let source):
            do { return try source.facts(at: now) } catch { throw .crown(error) }
        case .evdev(let source):
            do { return try source.facts(at: now) } catch { throw .inputDevice(error) }
        case .keyboard(let source):
            do { return try source.facts(at: now) } catch { throw .terminal(error) }
        case .script(var source):
            let facts = source.facts(at: now)
            self = .script(source)
            return facts
        }
    }
}

extension CrownChoice {
    /// Opens the knob; nil for the keyboard. The error names the chip, line or device and the fix.
    package func open() throws(CrownPagerError) -> Knob? {
        switch self {
        case .gpio(let wiring, let quadrature):
            do {
                return .gpio(
                    try GPIOCrownSource(
                        wiring: wiring, configuration: CrownDecoderConfiguration(quadrature: quadrature)))
            } catch {
                throw .crown(error)
            }
        case .evdev(let path, let inverted):
            do {
                return .evdev(
                    try EvdevCrownSource(path: path, configuration: InputEventConfiguration(inverted: inverted)))
            } catch {
                throw .inputDevice(error)
            }
        case .keyboard:
            return nil
        }
    }
}
