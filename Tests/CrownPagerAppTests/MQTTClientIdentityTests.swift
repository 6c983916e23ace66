import Foundation
import LinuxHardware
import TestSupport
import Testing

@testable import CrownPagerApp

/// The default client id: one per board, the same across restarts, different on copied cards.
@Suite struct MQTTClientIdentityTests {
    @Test func theBoardsSerialNumberComesFirst() throws {
        let root = try ScratchDirectory()
        let folder = root.path + "/sys/firmware/devicetree/base"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // As the Pi's firmware writes it: 16 hex digits and the property's NUL.
        try Data("00000000A1B2C3D4\u{0}".utf8).write(to: URL(fileURLWithPath: folder + "/serial-number"))
        let serial = HostIdentity.boardSerial(root: root.path)
        #expect(serial == "00000000a1b2c3d4")
        let identity = MQTTClientIdentity.choose(
            serial: serial, kept: MQTTClientIdentity.KeptIdentity(folder: root.path), machineID: "0123456789abcdef0123",
            hostname: "pi")
        #expect(
            identity == MQTTClientIdentity(clientID: "crownpager-0000a1b2c3d4", origin: "the board's serial number"))
        #expect(
            !FileManager.default.fileExists(atPath: root.path + "/mqtt-client-id"),
            "nothing kept when a serial is there")
        // A serial of zeros (a board whose firmware leaves it unset) is no serial.
        try Data("0000000000000000\u{0}".utf8).write(to: URL(fileURLWithPath: folder + "/serial-number"))
        #expect(HostIdentity.boardSerial(root: root.path) == nil)
        #expect(HostIdentity.boardSerial(root: root.path + "/none") == nil)
    }

    @Test func withoutASerialAnIdIsMadeOnceAndKeptAndTwoFoldersGetTwoIds() throws {
        let first = try ScratchDirectory()
        let second = try ScratchDirectory()
        let made = MQTTClientIdentity.choose(
            serial: nil, kept: MQTTClientIdentity.KeptIdentity(folder: first.path), machineID: "0123456789abcdef",
            hostname: "pi")
        #expect(made.clientID.hasPrefix("crownpager-") && made.clientID.count == "crownpager-".count + 12)
        #expect(made.origin == "kept in \(first.path)/mqtt-client-id")
        // The next start reads it back: the same id across restarts.
        let again = MQTTClientIdentity.choose(
            serial: nil, kept: MQTTClientIdentity.KeptIdentity(folder: first.path), machineID: "fedcba9876543210",
            hostname: "pi")
        #expect(again == made)
        let attributes = try FileManager.default.attributesOfItem(atPath: first.path + "/mqtt-client-id")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        // Another card copied from the same image, with the same machine id: its own id.
        let other = MQTTClientIdentity.choose(
            serial: nil, kept: MQTTClientIdentity.KeptIdentity(folder: second.path), machineID: "0123456789abcdef",
            hostname: "pi")
        #expect(other.clientID != made.clientID)
    }

    @Test func aDamagedKeptIdIsMadeAnewAndNoFolderFallsBackToTheMachineIdThenTheHostName() throws {
        let folder = try ScratchDirectory()
        try "not an id\n".write(toFile: folder.path + "/mqtt-client-id", atomically: true, encoding: .utf8)
        let remade = MQTTClientIdentity.choose(
            serial: nil, kept: MQTTClientIdentity.KeptIdentity(folder: folder.path), machineID: nil, hostname: "pi")
        #expect(remade.clientID.count == "crownpager-".count + 12)
        let kept = try String(contentsOfFile: folder.path + "/mqtt-client-id", encoding: .utf8)
        #expect("crownpager-" + kept.trimmingCharacters(in: .whitespacesAndNewlines) == remade.clientID)
        // A state folder that cannot be written: the next way.
        let unwritable = MQTTClientIdentity.KeptIdentity(folder: "/proc/crownpager-none")
        #expect(
            MQTTClientIdentity.choose(serial: nil, kept: unwritable, machineID: "0123456789abcdef0123", hostname: "pi")
                == MQTTClientIdentity(clientID: "crownpager-0123456789ab", origin: "/etc/machine-id"))
        #expect(
            MQTTClientIdentity.choose(serial: nil, kept: nil, machineID: nil, hostname: "pi")
                == MQTTClientIdentity(clientID: "crownpager-pi", origin: "the host name"))
    }
}
