import CrownInput
import LinuxHardware
import MockDisplay
import PagerCore

/// Where the doctor's crown facts come from: the kernel's input device, the keyboard, or (later) GPIO lines.
public protocol CrownEventSource {
    /// What is being read, for the first line of output.
    var sourceDescription: String { get }
    /// Glitches the source filtered so far.
    var glitchesFiltered: Int { get }
    /// Waits up to `timeoutMilliseconds` for facts; [] on timeout, nil when the user asked to stop.
    mutating func nextEvents(timeoutMilliseconds: Int) throws(AppError) -> [CrownEvent]?
}

/// The knob as the kernel's `rotary-encoder` and `gpio-keys` drivers report it, from `/dev/input/eventN`.
public struct EvdevCrownSource: CrownEventSource {
    private let device: InputEventDevice
    private var translator: InputEventTranslator

    /// Opens `path`; the error names the path and the fix (the `input` group, the overlays).
    public init(path: String, configuration: InputEventConfiguration = InputEventConfiguration()) throws(AppError) {
        do {
            device = try InputEventDevice(path: path)
        } catch {
            throw AppError(error.description)
        }
        translator = InputEventTranslator(configuration: configuration)
    }

    public var sourceDescription: String {
        let clock = device.usesMonotonicClock ? "" : " (not an input device: timestamps as written)"
        return device.path + (device.name.map { " \"\($0)\"" } ?? "") + clock
    }

    /// Packets the kernel dropped (SYN_DROPPED): the kernel filters bounce itself.
    public var glitchesFiltered: Int { translator.statistics.droppedPackets }

    public mutating func nextEvents(timeoutMilliseconds: Int) throws(AppError) -> [CrownEvent]? {
        do {
            return translator.translate(try device.read(timeoutMilliseconds: timeoutMilliseconds))
        } catch {
            throw AppError(error.description)
        }
    }
}

/// The keyboard as a crown, to try the doctor without hardware: the terminal mock's keys.
public final class KeyboardCrownSource: CrownEventSource {
    private let terminal: TerminalSession
    private var decoder = KeyDecoder()

    /// Puts the terminal in raw mode until `restore()`.
    public init() throws(AppError) {
        do {
            terminal = try TerminalSession()
            try terminal.begin(enterSequence: "", leaveSequence: "")
        } catch {
            throw AppError(error)
        }
    }

    /// Gives the terminal back as it was.
    public func restore() { terminal.restore() }

    public var sourceDescription: String { "the keyboard (Down/j next, Up/k back, Enter press, q quits)" }
    public var glitchesFiltered: Int { 0 }

    public func nextEvents(timeoutMilliseconds: Int) throws(AppError) -> [CrownEvent]? {
        let input: [UInt8]
        do {
            input = try terminal.readInput(timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            throw AppError(error)
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
