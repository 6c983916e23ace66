import CrownInput
import CrownVocabulary
import LinuxHardware
import MockDisplay
import PagerCore
import PagerEngine

/// Where crown facts come from: GPIO lines, the kernel's input device, or the keyboard.
public protocol CrownEventSource {
    /// What is being read, for the first line of output.
    var sourceDescription: String { get }
    /// Glitches the source filtered so far.
    var glitchesFiltered: Int { get }
    /// Waits up to `timeoutMilliseconds` for facts; [] on timeout, nil when the user asked to stop.
    mutating func nextEvents(timeoutMilliseconds: Int) throws(CrownPagerError) -> [CrownEvent]?
}

/// A knob the run loop waits on with poll(2) beside its other descriptors: when one of
/// `pollDescriptors` is readable, or at `nextDeadline`, it calls `nextEvents(timeoutMilliseconds: 0)`.
public protocol PollableCrownSource: AnyObject, CrownEventSource {
    /// The descriptors that become readable when facts may be ready.
    var pollDescriptors: [Int32] { get }
    /// When to ask again although no descriptor is ready (a debounced level settling), if ever.
    var nextDeadline: Timestamp? { get }
}

/// The knob as the kernel's `rotary-encoder` and `gpio-keys` drivers report it, from `/dev/input/eventN`.
public final class EvdevCrownSource: PollableCrownSource {
    private let device: InputEventDevice
    private var translator: InputEventTranslator

    /// Opens `path`; the error names the path and the fix (the `input` group, the overlays).
    public init(path: String, configuration: InputEventConfiguration = InputEventConfiguration())
        throws(CrownPagerError)
    {
        do {
            device = try InputEventDevice(path: path)
        } catch {
            throw .inputDevice(error)
        }
        translator = InputEventTranslator(configuration: configuration)
    }

    public var sourceDescription: String {
        let clock = device.usesMonotonicClock ? "" : " (not an input device: timestamps as written)"
        return device.path + (device.name.map { " \"\($0)\"" } ?? "") + clock
    }

    /// Packets the kernel dropped (SYN_DROPPED): the kernel filters bounce itself.
    public var glitchesFiltered: Int { translator.statistics.droppedPackets }

    public var pollDescriptors: [Int32] { [device.pollDescriptor] }
    /// The kernel debounces and times the facts: nothing settles later.
    public var nextDeadline: Timestamp? { nil }

    public func nextEvents(timeoutMilliseconds: Int) throws(CrownPagerError) -> [CrownEvent]? {
        do {
            return translator.translate(try device.read(timeoutMilliseconds: timeoutMilliseconds))
        } catch {
            throw .inputDevice(error)
        }
    }
}

/// The keyboard as a crown, to try the doctor without hardware: the terminal mock's keys.
public final class KeyboardCrownSource: CrownEventSource {
    private let terminal: TerminalSession
    private var decoder = KeyDecoder()

    /// Puts the terminal in raw mode until `restore()`.
    public init() throws(CrownPagerError) {
        do {
            terminal = try TerminalSession()
            try terminal.begin(enterSequence: "", leaveSequence: "")
        } catch {
            throw .terminal(error)
        }
    }

    /// Gives the terminal back as it was.
    public func restore() { terminal.restore() }

    public var sourceDescription: String { "the keyboard (Down/j next, Up/k back, Enter press, q quits)" }
    public var glitchesFiltered: Int { 0 }

    public func nextEvents(timeoutMilliseconds: Int) throws(CrownPagerError) -> [CrownEvent]? {
        let input: [UInt8]
        do {
            input = try terminal.readInput(timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            throw .terminal(error)
        }
        let now = MonotonicClock.now()
        var events: [CrownEvent] = []
        for command in input.isEmpty ? decoder.flush() : decoder.feed(input) {
            switch command {
            case .quit: return nil
            case .redraw: break
            case .turn, .press, .longPress:
                events += TerminalCrown.events(
                    for: command, at: now, longPressDuration: CrownConfiguration().longPressDuration)
            }
        }
        return events
    }
}

extension CrownChoice {
    /// Opens the knob; nil for the keyboard. The error names the chip, line or device and the fix.
    public func open() throws(CrownPagerError) -> (any PollableCrownSource)? {
        switch self {
        case .gpio(let wiring, let quadrature):
            return try GPIOCrownSource(wiring: wiring, configuration: CrownDecoderConfiguration(quadrature: quadrature))
        case .evdev(let path, let inverted):
            return try EvdevCrownSource(path: path, configuration: InputEventConfiguration(inverted: inverted))
        case .keyboard:
            return nil
        }
    }
}
