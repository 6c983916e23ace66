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

    /// The knob opened again; the error says why it cannot be yet (still away, or back with the
    /// wrong permissions), for the log.
    func reopen() throws(CrownPagerError) -> Knob {
        switch self {
        case .gpio(let wiring, let configuration):
            do {
                return .gpio(try GPIOCrownSource(wiring: wiring, configuration: configuration))
            } catch {
                throw .crown(error)
            }
        case .evdev(let path, let configuration):
            do {
                return .evdev(try EvdevCrownSource(path: path, configuration: configuration))
            } catch {
                throw .inputDevice(error)
            }
        }
    }
}
