import Foundation
import LinuxSystem
import TestSupport
import Testing

@testable import CrownPagerApp

/// The default client id: one per board, the same across restarts, different on copied cards,
/// and the one an upgraded pager used before.
@Suite struct MQTTClientIdentityTests {
    static func choose(serial: String?, folder: String?, machineID: String? = "0123456789abcdef0123")
        -> MQTTClientIdentity
    {
        MQTTClientIdentity.choose(
            serial: serial, kept: folder.map(MQTTClientIdentity.KeptIdentity.init(folder:)), machineID: machineID,
            hostname: "pi", random: { HostIdentity.randomHexadecimal(bytes: 6) })
    }

    @Test func theBoardsSerialNumberIsReadFromTheDeviceTreeAndKept() throws {
        let root = try ScratchDirectory()
        let folder = root.path + "/sys/firmware/devicetree/base"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // As the Pi's firmware writes it: 16 hex digits and the property's NUL.
        try Data("00000000A1B2C3D4\u{0}".utf8).write(to: URL(fileURLWithPath: folder + "/serial-number"))
        let serial = HostIdentity.boardSerial(root: root.path)
        #expect(serial == "00000000a1b2c3d4")
        let identity = Self.choose(serial: serial, folder: root.path)
        #expect(
            identity == MQTTClientIdentity(clientID: "crownpager-0000a1b2c3d4", origin: "the board's serial number"))
        #expect(try String(contentsOfFile: root.path + "/mqtt-client-id", encoding: .utf8) == "0000a1b2c3d4\n")
        // A serial of zeros (a board whose firmware leaves it unset) is no serial.
        try Data("0000000000000000\u{0}".utf8).write(to: URL(fileURLWithPath: folder + "/serial-number"))
        #expect(HostIdentity.boardSerial(root: root.path) == nil)
        #expect(HostIdentity.boardSerial(root: root.path + "/none") == nil)
    }

    @Test func aKeptIdComesFirstSoAnUpgradedPagerKeepsTheOneItUsed() throws {
        let folder = try ScratchDirectory()
        // What the package's postinst keeps on an upgrade: the machine id's first 12 characters.
        try "0123456789ab\n".write(toFile: folder.path + "/mqtt-client-id", atomically: true, encoding: .utf8)
        let identity = Self.choose(serial: "00000000a1b2c3d4", folder: folder.path)
        #expect(
            identity
                == MQTTClientIdentity(
                    clientID: "crownpager-0123456789ab", origin: "kept in \(folder.path)/mqtt-client-id"))
    }

    @Test func withoutASerialAnIdIsMadeOnceAndKeptAndTwoFoldersGetTwoIds() throws {
        let first = try ScratchDirectory()
        let second = try ScratchDirectory()
        let made = Self.choose(serial: nil, folder: first.path)
        #expect(made.clientID.hasPrefix("crownpager-") && made.clientID.count == "crownpager-".count + 12)
        #expect(made.origin == "made and kept in \(first.path)/mqtt-client-id")
        // The next start reads it back: the same id across restarts, whatever the machine id.
        let again = Self.choose(serial: nil, folder: first.path, machineID: "fedcba9876543210")
        #expect(again.clientID == made.clientID)
        let attributes = try FileManager.default.attributesOfItem(atPath: first.path + "/mqtt-client-id")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        // Another card copied from the same image, with the same machine id: its own id.
        #expect(Self.choose(serial: nil, folder: second.path).clientID != made.clientID)
    }

    @Test func aDamagedKeptIdIsMadeAnewAndNoFolderFallsBackToTheMachineIdThenTheHostName() throws {
        let folder = try ScratchDirectory()
        try "not an id!\n".write(toFile: folder.path + "/mqtt-client-id", atomically: true, encoding: .utf8)
        let remade = Self.choose(serial: nil, folder: folder.path)
        #expect(remade.clientID.count == "crownpager-".count + 12)
        let kept = try String(contentsOfFile: folder.path + "/mqtt-client-id", encoding: .utf8)
        #expect("crownpager-" + kept.trimmingCharacters(in: .whitespacesAndNewlines) == remade.clientID)
        // A state folder that cannot be written: the next way.
        #expect(
            Self.choose(serial: nil, folder: "/proc/crownpager-none")
                == MQTTClientIdentity(clientID: "crownpager-0123456789ab", origin: "/etc/machine-id"))
        #expect(
            Self.choose(serial: nil, folder: nil, machineID: nil)
                == MQTTClientIdentity(clientID: "crownpager-pi", origin: "the host name"))
    }
}
