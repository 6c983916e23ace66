import CrownPagerApp
import Foundation
import PagerEngine
import TestSupport
import Testing

/// The install scripts against a temporary root folder, and the unit file through systemd-analyze.
@Suite(.serialized) struct ConfigInstallTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func script(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try ScriptsTests.run("Scripts/" + name, arguments)
    }

    @Test func installIntoARootKeepsAnEditedConfigurationAndUninstallRemovesIt() throws {
        let scratch = try ScratchDirectory()
        let root = scratch.path
        try FileManager.default.createDirectory(atPath: root + "/boot/firmware", withIntermediateDirectories: true)
        try "dtparam=audio=on\n".write(toFile: root + "/boot/firmware/config.txt", atomically: true, encoding: .utf8)
        let install = ["--root", root, "--binary", crownPagerExecutable().path]

        let first = try Self.script("install.sh", install)
        #expect(first.status == 0, "\(first.output)")
        for file in [
            "/usr/local/bin/crownpager", "/etc/crownpager/crownpager.toml", "/etc/systemd/system/crownpager.service",
            "/etc/udev/rules.d/99-crownpager-i2c.rules", "/etc/udev/rules.d/99-crownpager-gpio.rules",
        ] {
            #expect(FileManager.default.fileExists(atPath: root + file), "\(file)")
        }
        #expect(FileManager.default.isExecutableFile(atPath: root + "/usr/local/bin/crownpager"))
        let config = root + "/etc/crownpager/crownpager.toml"
        #expect(try String(contentsOfFile: config, encoding: .utf8) == Configuration.builtInText + "\n")
        #expect(
            try String(contentsOfFile: root + "/boot/firmware/config.txt", encoding: .utf8)
                == "dtparam=audio=on\ndtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n")

        // An edited configuration survives a second install; the new default goes beside it.
        let edited =
            Configuration.builtInText.replacingOccurrences(of: "brightness = 80", with: "brightness = 30") + "\n"
        try edited.write(toFile: config, atomically: true, encoding: .utf8)
        let second = try Self.script("install.sh", install)
        #expect(second.status == 0 && second.output.contains("keeping your edited"))
        #expect(try String(contentsOfFile: config, encoding: .utf8) == edited)
        #expect(FileManager.default.fileExists(atPath: config + ".default"))
        // config.txt lines are added once.
        #expect(
            try String(contentsOfFile: root + "/boot/firmware/config.txt", encoding: .utf8).components(
                separatedBy: "i2c_arm=on"
            ).count == 2)

        let uninstall = try Self.script("uninstall.sh", ["--root", root])
        #expect(uninstall.status == 0)
        #expect(!FileManager.default.fileExists(atPath: root + "/usr/local/bin/crownpager"))
        #expect(!FileManager.default.fileExists(atPath: root + "/etc/systemd/system/crownpager.service"))
        #expect(FileManager.default.fileExists(atPath: config))
        #expect(try Self.script("uninstall.sh", ["--root", root, "--purge"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: root + "/etc/crownpager"))
    }

    @Test func installRefusesToTouchTheSystemWithoutRoot() throws {
        guard getuid() != 0 else { return }  // as root the live install is the wanted behaviour
        let run = try Self.script("install.sh", ["--skip-packages"])
        #expect(run.status == 1 && run.output.contains("run as root"))
    }

    @Test func theUnitFileVerifiesWithSystemdAnalyze() throws {
        // Scripts/setup.sh --test installs systemd when systemd-analyze is missing: no silent skip.
        let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let analyze else {
            Issue.record("systemd-analyze is missing: run Scripts/setup.sh --test (it installs the systemd package)")
            return
        }
        let scratch = try ScratchDirectory()
        let unit = try String(
            contentsOf: Self.repository.appendingPathComponent("Hardware/crownpager.service"), encoding: .utf8)
        #expect(
            unit.contains("User=crownpager") && unit.contains("NoNewPrivileges=yes")
                && unit.contains("ProtectSystem=strict"))
        #expect(
            unit.contains("Restart=on-failure") && unit.contains("DevicePolicy=closed")
                && unit.contains("ExecReload=/bin/kill -HUP $MAINPID"))
        // verify checks that ExecStart's program exists: point it at the built one.
        let path = scratch.path + "/crownpager.service"
        try unit.replacingOccurrences(of: "/usr/local/bin/crownpager", with: crownPagerExecutable().path)
            .write(toFile: path, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: analyze)
        // --man=no: the unit's Documentation= would otherwise need man-db, which a minimal system lacks.
        process.arguments = ["verify", "--man=no", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(!output.contains("crownpager.service:"), "\(output)")
    }
}
