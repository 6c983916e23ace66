import Foundation
import TestSupport
import Testing

/// The shell scripts a new user meets: their usage, the user install, I2C in config.txt, and the
/// deploy road with a stand-in for ssh and scp.
@Suite(.tags(.endToEnd), .serialized) struct ScriptsTests {
    static let repository = ConfigInstallTests.repository

    /// Runs a script with bash, with extra environment settings, and returns its status and output.
    static func run(_ script: String, _ arguments: [String], environment extra: [String: String] = [:]) throws -> (
        status: Int32, output: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [repository.appendingPathComponent(script).path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        process.standardInput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static var scripts: [String] {
        let folder = repository.appendingPathComponent("Scripts")
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".sh") }.sorted().map { "Scripts/" + $0 }
    }

    @Test func everyScriptAnswersHelpWithItsUsageNotItsCode() throws {
        #expect(Self.scripts.count >= 15, "\(Self.scripts)")
        for script in Self.scripts {
            let help = try Self.run(script, ["--help"])
            #expect(help.status == 0, "\(script): \(help.output)")
            let firstLine = help.output.split(separator: "\n").first.map(String.init) ?? ""
            #expect(firstLine.first?.isUppercase == true, "\(script) starts its usage with: \(firstLine)")
            for code in ["#!", "set -e", "pipefail", "fi\n", "esac"] {
                #expect(!help.output.contains(code), "\(script) --help prints code (\(code)): \(help.output)")
            }
        }
    }

    @Test func unknownOptionsAreRefusedWithAPointerToHelp() throws {
        for script in [
            "Scripts/setup.sh", "Scripts/test.sh", "Scripts/release/package.sh", "Scripts/install.sh",
            "Scripts/dev/fresh-root-check.sh", "Scripts/release/apt-repo.sh",
        ] {
            let run = try Self.run(script, ["--frobnicate"])
            #expect(run.status == 2, "\(script): \(run.output)")
            #expect(run.output.contains("--help"), "\(script): \(run.output)")
        }
        let arch = try Self.run("Scripts/release/package.sh", ["--arch", "mips"])
        #expect(arch.status == 2 && arch.output.contains("amd64 or arm64"), "\(arch.output)")
    }

    @Test func i2cThatConfigTxtTurnsOffIsTurnedOnAndAnOwnSpeedKept() throws {
        let root = try ScratchDirectory()
        try FileManager.default.createDirectory(atPath: root.path + "/boot/firmware", withIntermediateDirectories: true)
        let config = root.path + "/boot/firmware/config.txt"
        try "dtparam=audio=on\ndtparam=i2c_arm=off\ndtparam=i2c_arm_baudrate=100000\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let run = try Self.run("Scripts/install.sh", ["--root", root.path, "--enable-i2c-only"])
        #expect(run.status == 0, "\(run.output)")
        let after = try String(contentsOfFile: config, encoding: .utf8)
        #expect(after == "dtparam=audio=on\ndtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=100000\n", "\(after)")
        #expect(run.output.contains("dtparam=i2c_arm=off") && run.output.contains("reboot"), "\(run.output)")
        // Once on, a second run changes nothing.
        let again = try Self.run("Scripts/install.sh", ["--root", root.path, "--enable-i2c-only"])
        #expect(try String(contentsOfFile: config, encoding: .utf8) == after)
        #expect(again.output.contains("already enables I2C"), "\(again.output)")
    }

    @Test func aUserInstallPutsTheCommandAndItsCompletionInTheHomeFolder() throws {
        let home = try ScratchDirectory()
        let run = try Self.run(
            "Scripts/install.sh", ["--user", "--binary", crownPagerExecutable().path],
            environment: ["HOME": home.path, "XDG_BIN_HOME": "", "XDG_DATA_HOME": "", "PATH": "/usr/bin:/bin"])
        #expect(run.status == 0, "\(run.output)")
        #expect(FileManager.default.isExecutableFile(atPath: home.path + "/.local/bin/crownpager"))
        let completion = try String(
            contentsOfFile: home.path + "/.local/share/bash-completion/completions/crownpager", encoding: .utf8)
        #expect(completion.contains("crownpager"))
        #expect(run.output.contains("installed \(home.path)/.local/bin/crownpager (crownpager "), "\(run.output)")
        #expect(run.output.contains("is not on your PATH"), "\(run.output)")
    }

    /// A stand-in for ssh and scp that logs each call and answers `dpkg --print-architecture`.
    static func fakeSSH(in folder: ScratchDirectory, architecture: String) throws -> [String: String] {
        let log = folder.path + "/calls.log"
        let ssh = folder.path + "/ssh"
        let scp = folder.path + "/scp"
        try """
        #!/bin/bash
        echo "ssh $*" >> \(log)
        case "$*" in *"dpkg --print-architecture"*) echo \(architecture) ;; esac
        cat >/dev/null
        """.write(toFile: ssh, atomically: true, encoding: .utf8)
        try "#!/bin/bash\necho \"scp $*\" >> \(log)\n".write(toFile: scp, atomically: true, encoding: .utf8)
        for file in [ssh, scp] { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file) }
        return ["CROWNPAGER_SSH": ssh, "CROWNPAGER_SCP": scp]
    }

    @Test func deployToA32BitPiSaysWhatItNeedsInsteadOfBuilding() throws {
        let folder = try ScratchDirectory()
        let run = try Self.run(
            "Scripts/deploy.sh", ["pi@crownpi.local"], environment: try Self.fakeSSH(in: folder, architecture: "armhf"))
        #expect(run.status == 1, "\(run.output)")
        #expect(
            run.output.contains("32-bit OS (armhf)") && run.output.contains("64-bit Raspberry Pi OS"), "\(run.output)")
        #expect(run.output.contains("--build-on-target"), "\(run.output)")
    }

    @Test func deployCopiesTheGivenPackageAndInstallsItWithAptKeepingTheConfiguration() throws {
        let folder = try ScratchDirectory()
        let deb = folder.path + "/crownpager_9.9.9_arm64.deb"
        try "not really a package".write(toFile: deb, atomically: true, encoding: .utf8)
        let run = try Self.run(
            "Scripts/deploy.sh", ["pi@crownpi.local", "--deb", deb],
            environment: try Self.fakeSSH(in: folder, architecture: "arm64"))
        #expect(run.status == 0, "\(run.output)")
        let calls = try String(contentsOfFile: folder.path + "/calls.log", encoding: .utf8).split(separator: "\n").map(
            String.init)
        #expect(calls.count == 3, "\(calls)")
        #expect(calls.first == "scp \(deb) pi@crownpi.local:/tmp/crownpager_9.9.9_arm64.deb", "\(calls)")
        #expect(calls.dropFirst().first?.contains("sudo apt-get install -y") == true, "\(calls)")
        #expect(
            calls.dropFirst().first?.contains("--force-confold /tmp/crownpager_9.9.9_arm64.deb") == true, "\(calls)")
        #expect(calls.last == "ssh pi@crownpi.local sudo bash -s -- --enable-i2c-only", "\(calls)")
    }

    @Test func deployWantsTheHostFirst() throws {
        let run = try Self.run("Scripts/deploy.sh", ["--deb", "x.deb"])
        #expect(run.status == 2 && run.output.contains("give the Pi first"), "\(run.output)")
    }
}
