import ArgumentParser
import CrownPagerApp
import PagerEngine
import PagerSettings

/// The crown on GPIO lines read through libgpiod: the chip and the three offsets.
struct GPIOOptions: ParsableArguments {
    @Option(help: .setting("--chip", valueName: "/dev/gpiochipN"))
    var chip: String?

    @Option(name: .customLong("line-a"), help: .setting("--line-a", valueName: "n"))
    var lineA: UInt32?

    @Option(name: .customLong("line-b"), help: .setting("--line-b", valueName: "n"))
    var lineB: UInt32?

    @Option(name: .customLong("line-button"), help: .setting("--line-button", valueName: "n"))
    var lineButton: UInt32?

    func validate() throws {
        if chip == nil, lineA != nil || lineB != nil || lineButton != nil {
            throw ValidationError("--line-a, --line-b and --line-button need --chip /dev/gpiochipN")
        }
        try checkRange(lineA.map { Int($0) }, flag: "--line-a")
        try checkRange(lineB.map { Int($0) }, flag: "--line-b")
        try checkRange(lineButton.map { Int($0) }, flag: "--line-button")
        if let chip, !chip.hasPrefix("/") {
            throw ValidationError("--chip must be a path such as /dev/gpiochip0, not '\(chip)'")
        }
        if let wiring, Set([wiring.lineA, wiring.lineB, wiring.button]).count != 3 {
            throw ValidationError(
                "the crown's three lines must be different offsets, not \(wiring.lineA), \(wiring.lineB), \(wiring.button)"
            )
        }
    }

    /// The wiring asked for, or nil without --chip.
    var wiring: GPIOCrownWiring? {
        guard let chip else { return nil }
        let defaults = GPIOCrownWiring(chipPath: chip)
        return GPIOCrownWiring(
            chipPath: chip, lineA: lineA ?? defaults.lineA, lineB: lineB ?? defaults.lineB,
            button: lineButton ?? defaults.button)
    }
}
