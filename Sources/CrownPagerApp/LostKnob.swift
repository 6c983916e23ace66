import CrownInput
import CrownVocabulary
import LinuxSystem
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

extension LinuxShell {
    /// The knob's chip or input device went away (its driver unbound, an expander or a USB knob
    /// unplugged): the run goes on with the terminal's keys and opens it again every `knobRetryInterval`.
    func loseKnob(_ lost: LostKnob, because reason: String, at now: Timestamp) {
        knob = nil
        lostKnob = (lost, now + knobRetryInterval, nil)
        OperatorLog.error(
            "crownpager: the knob's \(lost.what) disappeared (\(reason)); the terminal's keys "
                + "still turn the crown; waiting for it to come back")
    }

    /// Tries the lost knob again when its time has come.
    func reopenKnob(at now: Timestamp) {
        guard let lost = lostKnob, lost.retryAt <= now else { return }
        let source: Knob
        do {
            source = try lost.knob.reopen()
        } catch {
            lostKnob?.retryAt = now + knobRetryInterval
            // Each new reason once (a chip back with the wrong permissions), not every retry's.
            let failure = error.description
            if failure != lost.lastFailure {
                lostKnob?.lastFailure = failure
                OperatorLog.info("crownpager: the knob cannot be opened yet: \(failure)")
            }
            return
        }
        knob = source
        lostKnob = nil
        OperatorLog.info("crownpager: the knob is back: \(source.sourceDescription)")
    }
}
