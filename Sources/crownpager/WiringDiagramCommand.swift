import ArgumentParser
import CrownPagerApp
import LinuxHardware
import PagerEngine
import PagerGraphics

/// `crownpager wiring-diagram --out FILE`: the wiring picture of Hardware/README.md, drawn by CrownPager itself.
struct WiringDiagramCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wiring-diagram",
        abstract: "Write the wiring diagram (the Pi's header, the OLED and the encoder) as a PNG.",
        shouldDisplay: false)

    @Option(help: ArgumentHelp("The PNG file to write.", valueName: "file"))
    var out: String

    @Option(help: "Each pixel as a square this many pixels wide (1 to 8).")
    var scale: Int = 2

    func validate() throws {
        guard (1...8).contains(scale) else { throw ValidationError("--scale must be between 1 and 8, not \(scale)") }
    }

    func run() throws {
        let png = PNG.encode(WiringDiagram.render(), scale: scale, lit: .black, dark: .white)
        do throws(FileSystemError) {
            try FileSystem.writeAtomically(png, toPath: out)
        } catch {
            throw fail(.writeFile(error), prefix: "cannot write the wiring diagram: ")
        }
    }
}
