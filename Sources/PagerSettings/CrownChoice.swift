import CrownInput
import PagerCore

/// Where the run reads the knob: GPIO lines through libgpiod, the kernel's input device, or
/// only the terminal's keys. Chosen by `--chip`, `--evdev`, `--keyboard`, else by `[crown]`.
package enum CrownChoice: Hashable, Sendable {
    /// The A, B and button lines on a GPIO chip, decoded here.
    case gpio(GPIOCrownWiring, QuadratureConfiguration)
    /// `/dev/input/eventN`, made by the `rotary-encoder` and `gpio-key` overlays.
    case evdev(path: String, inverted: Bool)
    /// No knob: the terminal's keys, which work whenever standard input is a terminal.
    case keyboard

    /// The knob `[crown]` describes (`source`, `chip`, `lines`, `steps_per_detent`, `inverted`, `evdev`).
    package init(_ section: CrownSection) {
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
}

/// Where the crown's three lines are: a GPIO chip and the offsets of A (CLK), B (DT) and the button (SW).
package struct GPIOCrownWiring: Hashable, Sendable, CustomStringConvertible {
    /// The chip, e.g. `/dev/gpiochip0`.
    package var chipPath: String
    /// Encoder line A (CLK).
    package var lineA: UInt32
    /// Encoder line B (DT).
    package var lineB: UInt32
    /// The push button (SW).
    package var button: UInt32

    /// The wiring of Hardware/ENCODER.md: GPIO17, GPIO27 and GPIO22 on `/dev/gpiochip0`.
    package init(chipPath: String = "/dev/gpiochip0", lineA: UInt32 = 17, lineB: UInt32 = 27, button: UInt32 = 22) {
        self.chipPath = chipPath
        self.lineA = lineA
        self.lineB = lineB
        self.button = button
    }

    /// `/dev/gpiochip0 lines 17 (A), 27 (B), 22 (button)`.
    package var description: String { "\(chipPath) lines \(lineA) (A), \(lineB) (B), \(button) (button)" }
}
