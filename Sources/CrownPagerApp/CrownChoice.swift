import CrownInput
import PagerCore

/// Where the run reads the knob: GPIO lines through libgpiod, the kernel's input device, or
/// only the terminal's keys. Chosen by `--chip`, `--evdev`, `--keyboard`, else by `[crown]`.
public enum CrownChoice: Hashable, Sendable {
    /// The A, B and button lines on a GPIO chip, decoded here.
    case gpio(GPIOCrownWiring, QuadratureConfiguration)
    /// `/dev/input/eventN`, made by the `rotary-encoder` and `gpio-key` overlays.
    case evdev(path: String, inverted: Bool)
    /// No knob: the terminal's keys, which work whenever standard input is a terminal.
    case keyboard

    /// The knob `[crown]` describes (`source`, `chip`, `lines`, `steps_per_detent`, `inverted`, `evdev`).
    public init(_ section: CrownSection) {
        switch section.source {
        case "evdev":
            self = .evdev(path: section.evdevPath, inverted: section.inverted)
        case "keyboard":
            self = .keyboard
        default:
            let wiring = GPIOCrownWiring(
                chipPath: section.chip, lineA: UInt32(clamping: section.lineA), lineB: UInt32(clamping: section.lineB),
                button: UInt32(clamping: section.lineButton))
            self = .gpio(wiring, QuadratureConfiguration(stepping: section.stepping, inverted: section.inverted))
        }
    }

    /// Opens the knob; nil for the keyboard. The error names the chip, line or device and the fix.
    public func open() throws(AppError) -> (any PollableCrownSource)? {
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
