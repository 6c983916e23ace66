import CrownInput
import LinuxHardware
import PagerEngine
import PagerSettings

/// A knob that went away mid-run, with what it takes to open it again the same way.
enum LostKnob {
    /// A quadrature encoder whose GPIO chip went away.
    case gpio(GPIOCrownWiring, CrownDecoderConfiguration)
    /// The kernel's input device, unregistered.
    case evdev(String, InputEventConfiguration)

    /// What went away, for the log: "chip /dev/gpiochip0", "input device /dev/input/event0".
    var what: String {
        switch self {
        case .gpio(let wiring, _): return "chip \(wiring.chipPath)"
        case .evdev(let path, _): return "input device \(path)"
        }
    }

    /// The knob opened again; nil while it is still away.
    func reopen() -> Knob? {
        switch self {
        case .gpio(let wiring, let configuration):
            return try? .gpio(GPIOCrownSource(wiring: wiring, configuration: configuration))
        case .evdev(let path, let configuration):
            return try? .evdev(EvdevCrownSource(path: path, configuration: configuration))
        }
    }
}
