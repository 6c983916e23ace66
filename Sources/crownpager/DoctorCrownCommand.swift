import ArgumentParser
import CrownInput
import CrownPagerApp
import CrownVocabulary
import LinuxSystem
import PagerCore

/// `crownpager doctor crown`: watch the knob live, to check its wiring.
struct DoctorCrownCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crown",
        abstract: "Watch the crown live: detents, direction, speed, presses, and glitches filtered.",
        discussion: """
            Turn the knob both ways and press it: clockwise should count up. --chip reads the \
            encoder's lines through libgpiod (GPIO17, 27 and 22 unless --line-a, --line-b, --line-button say otherwise); \
            --evdev reads the kernel's rotary-encoder device. If it counts the \
            wrong way, swap the A and B wires or pass --inverted. On a terminal one line is \
            updated in place; into a pipe every fact is printed on its own line.
            """)

    @Option(
        help: ArgumentHelp(
            "Read the kernel's input device made by the rotary-encoder and gpio-key overlays.",
            valueName: "/dev/input/eventN"))
    var evdev: String?

    @OptionGroup(title: "GPIO lines") var gpio: GPIOOptions

    @Flag(help: "Use the keyboard as the crown (Down/j, Up/k, Enter; q quits), to try the doctor without a knob.")
    var keyboard = false

    @Option(
        help: "With --evdev: the rotary axis, REL_X (the overlay's default), REL_Y, REL_DIAL, REL_WHEEL or a number.")
    var axis = "REL_X"

    @Option(help: "With --evdev: the button's key code, KEY_ENTER (28) by default, or a number.")
    var key = "KEY_ENTER"

    @Flag(help: "Count clockwise as negative.")
    var inverted = false

    @Option(help: "Stop after this many facts (detents, presses, releases).")
    var count: Int?

    @Option(help: ArgumentHelp("Stop after this many seconds.", valueName: "seconds"))
    var duration: Double?

    @Flag(help: "Print a line per fact even on a terminal.")
    var lines = false

    func validate() throws {
        guard [evdev != nil, keyboard, gpio.chip != nil].filter({ $0 }).count == 1 else {
            throw ValidationError(
                "say where the crown is: --evdev /dev/input/eventN (the kernel's rotary-encoder overlay), --chip "
                    + "/dev/gpiochip0 (GPIO lines through libgpiod) or --keyboard; only one of them")
        }
        guard parsedAxis != nil else {
            throw ValidationError("--axis must be REL_X, REL_Y, REL_DIAL, REL_WHEEL or a number, not '\(axis)'")
        }
        guard parsedKey != nil else {
            throw ValidationError("--key must be KEY_ENTER or a key code from 1 to 767, not '\(key)'")
        }
        if let count, count < 1 { throw ValidationError("--count must be at least 1, not \(count)") }
        if let duration, !(duration > 0 && duration <= 86_400) {
            throw ValidationError("--duration must be between 0 and 86400 seconds, not \(duration)")
        }
    }

    var parsedAxis: UInt16? {
        switch axis.uppercased() {
        case "REL_X": return InputEventCode.REL_X
        case "REL_Y": return InputEventCode.REL_Y
        case "REL_DIAL": return InputEventCode.REL_DIAL
        case "REL_WHEEL": return InputEventCode.REL_WHEEL
        default: return UInt16(axis).flatMap { $0 <= 0x0f ? $0 : nil }
        }
    }

    var parsedKey: UInt16? {
        if key.uppercased() == "KEY_ENTER" { return InputEventCode.KEY_ENTER }
        return UInt16(key).flatMap { (1...767).contains($0) ? $0 : nil }
    }

    func run() throws {
        guard let axis = parsedAxis, let key = parsedKey else { throw ExitCode.validationFailure }
        let session = KnobMonitorSession(
            count: count, duration: duration.map { TimeSpan(nanoseconds: Int64($0 * 1_000_000_000)) },
            live: !lines && StandardOutput.isTerminal)
        try report {
            if let wiring = gpio.wiring {
                let source: GPIOCrownSource
                do throws(GPIOError) {
                    source = try GPIOCrownSource(
                        wiring: wiring,
                        configuration: CrownDecoderConfiguration(
                            quadrature: QuadratureConfiguration(inverted: inverted)))
                } catch { throw CrownPagerError.crown(error) }
                defer { source.close() }
                var knob = Knob.gpio(source)
                try session.run(&knob)
            } else if let evdev {
                let source: EvdevCrownSource
                do throws(InputEventError) {
                    source = try EvdevCrownSource(
                        path: evdev, configuration: InputEventConfiguration(axis: axis, keys: [key], inverted: inverted)
                    )
                } catch { throw CrownPagerError.inputDevice(error) }
                var knob = Knob.evdev(source)
                try session.run(&knob)
            } else {
                let source: TerminalCrownSource
                do throws(TerminalError) {
                    source = try TerminalCrownSource(longPressDuration: CrownConfiguration().longPressDuration)
                } catch { throw CrownPagerError.terminal(error) }
                defer { source.restore() }
                var knob = Knob.keyboard(source)
                try session.run(&knob)
            }
        }
    }
}
