import ArgumentParser
import LinuxSystem
import SSD1306
import VhostUserI2C

/// The command line: where to listen, what answers, where the glass goes.
@main
struct VhostI2CCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crownpager-vhost-i2c",
        abstract: "Answers a VM's virtio-i2c adapter with the SSD1306 emulator, as a vhost-user back-end.",
        discussion: """
            Listens on --socket for QEMU's vhost-user-i2c device, which QEMU gives with:

              -object memory-backend-memfd,id=mem,size=1G,share=on -numa node,memdev=mem
              -chardev socket,id=vi2c,path=SOCKET
              -device vhost-user-i2c-pci,chardev=vi2c,event_idx=off

            The guest's /dev/i2c-N is then a full I2C adapter: the emulated panel answers at --address, \
            every other address NACKs. The glass is written to --glass as PBM (atomically) when QEMU \
            disconnects and on SIGUSR2. SIGUSR1 makes the panel absent (every message NACKed) until the \
            next SIGUSR1. SIGINT or SIGTERM writes the glass and ends the run.

            Exit status: 0 after QEMU disconnects, 64 for a wrong command line, 73 when the socket cannot \
            be made, 74 when the glass cannot be written, 76 when the front-end breaks vhost-user's \
            framing. A test tool of CrownPager, not in its .deb.
            """)

    @Option(help: ArgumentHelp("The Unix socket to listen on (QEMU connects to it).", valueName: "path"))
    var socket: String

    @Option(help: ArgumentHelp("The panel's 7-bit I2C address.", valueName: "address"))
    var address = "0x3c"

    @Option(
        help: ArgumentHelp(
            "The panel: ssd1306-128x64, \(SSD1306Panel.all.dropFirst().map(\.name).joined(separator: ", ")).",
            valueName: "name"))
    var panel = "ssd1306-128x64"

    @Option(help: ArgumentHelp("Where the glass goes as a PBM picture.", valueName: "file.pbm"))
    var glass: String

    @Flag(help: "Log every vhost-user message and each kick's count of requests to standard error.")
    var verbose = false

    func validate() throws {
        guard Self.address(address) != nil else {
            throw ValidationError("--address \(address) is not a 7-bit I2C address (0x03 to 0x77, e.g. 0x3c)")
        }
        guard SSD1306Panel.named(panel) != nil else {
            throw ValidationError(
                "--panel \(panel) is not a panel this emulator knows: \(SSD1306Panel.all.map(\.name).joined(separator: ", "))"
            )
        }
        guard !glass.isEmpty, !socket.isEmpty else { throw ValidationError("--socket and --glass need a path") }
    }

    /// `0x3c` or `60`, in the range i2cdetect probes.
    static func address(_ text: String) -> I2CAddress? {
        let value = text.lowercased().hasPrefix("0x") ? UInt8(text.dropFirst(2), radix: 16) : UInt8(text)
        guard let value, (0x03...0x77).contains(value) else { return nil }
        return I2CAddress(value)
    }

    func run() throws {
        guard let address = Self.address(address), let panel = SSD1306Panel.named(panel)
        else {
            throw ExitCode(64)
        }
        let emulator = SSD1306Emulator(panel: panel, address: address)
        do {
            let signals = try TerminationSignals(userSignals: true)
            let listener = try UnixListener(path: socket)
            StandardError.writeLine("crownpager-vhost-i2c: \(panel.name) at \(address) listening on \(socket)")
            var server = VhostI2CServer(
                backend: VhostUserI2CBackend(emulator: emulator), glassPath: glass, isVerbose: verbose)
            try server.run(listener: listener, signals: signals)
        } catch {
            StandardError.writeLine("crownpager-vhost-i2c: \(error)")
            throw ExitCode(error.exitStatus)
        }
    }
}
