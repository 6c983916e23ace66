import CrownPagerApp
import Foundation
import PagerEngine
import PagerSettings
import TestSupport
import Testing

/// The install scripts against a temporary root folder, and the unit file through systemd-analyze.
@Suite(.tags(.endToEnd), .serialized) struct ConfigInstallTests {
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
            "/etc/udev/rules.d/99-crownpager-spi.rules",
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

    /// systemd-analyze, or nil after recording that it is missing.
    static func systemdAnalyze() -> String? {
        // Scripts/setup.sh --test installs systemd when systemd-analyze is missing: no silent skip.
        let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        if analyze == nil {
            Issue.record("systemd-analyze is missing: run Scripts/setup.sh --test (it installs the systemd package)")
        }
        return analyze
    }

    /// The unit file in a scratch directory, its ExecStart pointing at the built program.
    static func unitCopy(in scratch: ScratchDirectory) throws -> (path: String, text: String) {
        let unit = try String(
            contentsOf: Self.repository.appendingPathComponent("Hardware/crownpager.service"), encoding: .utf8)
        let path = scratch.path + "/crownpager.service"
        try unit.replacingOccurrences(of: "/usr/local/bin/crownpager", with: crownPagerExecutable().path)
            .write(toFile: path, atomically: true, encoding: .utf8)
        return (path, unit)
    }

    /// Runs `tool` with `arguments`; its status and its output and error together.
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test func theUnitFileVerifiesWithSystemdAnalyze() throws {
        guard let analyze = Self.systemdAnalyze() else { return }
        let scratch = try ScratchDirectory()
        let (path, unit) = try Self.unitCopy(in: scratch)
        #expect(
            unit.contains("User=crownpager") && unit.contains("NoNewPrivileges=yes")
                && unit.contains("ProtectSystem=strict"))
        #expect(
            unit.contains("Restart=on-failure") && unit.contains("DevicePolicy=closed")
                && unit.contains("ExecReload=/bin/kill -HUP $MAINPID"))
        // verify checks that ExecStart's program exists: point it at the built one.
        // --man=no: the unit's Documentation= would otherwise need man-db, which a minimal system lacks.
        let verify = try Self.run(analyze, ["verify", "--man=no", path])
        #expect(verify.status == 0, "\(verify.output)")
        #expect(!verify.output.contains("crownpager.service:"), "\(verify.output)")
    }

    @Test func theUnitFileExposureIsTwoOrLess() throws {
        guard let analyze = Self.systemdAnalyze() else { return }
        // `security --offline=yes` reads a unit file without a running systemd: systemd 250 and later.
        let version = try Self.run(analyze, ["--version"])
        let major = version.output.split(separator: "\n").first?.split(separator: " ").dropFirst().first.flatMap {
            Int($0)
        }
        guard let major, major >= 250 else {
            print(
                "ConfigInstallTests: the unit's exposure was NOT measured: systemd-analyze is too old to analyze "
                    + "a unit offline (250 or later can): \(version.output.split(separator: "\n").first ?? "")")
            return
        }
        let scratch = try ScratchDirectory()
        let (path, _) = try Self.unitCopy(in: scratch)
        // --threshold is out of 100: 20 is the 2.0 printed.
        let security = try Self.run(analyze, ["security", "--offline=yes", "--no-pager", "--threshold=20", path])
        let overall = security.output.split(separator: "\n").first { $0.contains("Overall exposure level") }
        let score = overall?.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) }
        #expect(security.status == 0, "\(security.output)")
        #expect(score != nil && (score ?? 10) <= 2.0, "\(overall ?? "no overall exposure line")")
        // What keeps it there, each a line of the unit.
        for line in [
            "SystemCallFilter=@system-service", "SystemCallFilter=~@privileged @resources", "ProtectKernelTunables=yes",
            "ProtectProc=invisible", "PrivateMounts=yes", "MemoryDenyWriteExecute=yes",
        ] {
            #expect(try String(contentsOfFile: path, encoding: .utf8).contains(line + "\n"), "\(line)")
        }
    }
}
