import LinuxSystem

/// The MQTT client id a pager uses when `[mqtt] client_id` is unset: one per board, the same
/// across restarts, and different on two boards whose cards were copied from one image (a broker
/// closes the older of two connections with one id, and two such pagers would take the
/// connection from each other forever). Home Assistant's device and entity ids come from it too.
///
/// In order: the id kept in the service's state folder (`$STATE_DIRECTORY/mqtt-client-id`), so an
/// id once used stays (the package's postinst keeps the machine id's there on an upgrade from a
/// release that used it, and Home Assistant keeps its entities); else the board's serial number (a
/// Raspberry Pi's, from the device tree); else an id made from random bytes; either of these two
/// kept in the state folder for the next start. Outside the service (a run by hand, no state folder),
/// `/etc/machine-id`, else the host's name.
package struct MQTTClientIdentity: Hashable {
    /// The client id: `crownpager-` and 12 letters or digits.
    package var clientID: String
    /// Where it came from, for the journal: "the board's serial number", ….
    package var origin: String

    /// The file in the state folder that keeps the id.
    package static let fileName = "mqtt-client-id"

    /// The identity for this board; `stateDirectory` is the service's state folder, if it has one.
    package static func current(stateDirectory: String?) -> Self {
        choose(
            serial: HostIdentity.boardSerial(), kept: stateDirectory.map(KeptIdentity.init(folder:)),
            machineID: HostIdentity.machineID(), hostname: (try? SystemReadings.hostname()) ?? "pager",
            random: { HostIdentity.randomHexadecimal(bytes: 6) })
    }

    /// The decision, given what was read: a serial, the state folder's file, the machine id, the
    /// host name, and a source of 12 random hexadecimal digits.
    package static func choose(
        serial: String?, kept: KeptIdentity?, machineID: String?, hostname: String, random: () -> String?
    ) -> Self {
        if let kept {
            if let id = kept.read() { return Self(clientID: "crownpager-" + id, origin: "kept in \(kept.path)") }
            if let serial, kept.keep(String(serial.suffix(12))) {
                return Self(clientID: "crownpager-" + String(serial.suffix(12)), origin: "the board's serial number")
            }
            if serial == nil, let made = random(), kept.keep(made) {
                return Self(clientID: "crownpager-" + made, origin: "made and kept in \(kept.path)")
            }
        }
        if let serial {
            return Self(clientID: "crownpager-" + String(serial.suffix(12)), origin: "the board's serial number")
        }
        if let machineID {
            return Self(clientID: "crownpager-" + String(machineID.prefix(12)), origin: "/etc/machine-id")
        }
        return Self(clientID: "crownpager-" + hostname, origin: "the host name")
    }

    /// The id kept in a file of the state folder: 12 letters and digits on a line, readable by the
    /// service alone.
    package struct KeptIdentity: Hashable {
        /// The file.
        package var path: String

        package init(folder: String) { path = folder + "/" + MQTTClientIdentity.fileName }

        /// The id kept; nil when there is none, or what is there is not one (the journal says so).
        package func read() -> String? {
            guard FileSystem.exists(atPath: path), let text = try? FileSystem.readText(atPath: path, maximumBytes: 64)
            else { return nil }
            let id = text.filter { !$0.isWhitespace }
            if (1...12).contains(id.count), id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
                return id.lowercased()
            }
            OperatorLog.warning("crownpager: warning: \(path) does not hold a client id; making a new one")
            return nil
        }

        /// Writes `id` (atomically, durably); false, with a line in the journal, when it cannot.
        package func keep(_ id: String) -> Bool {
            do throws(FileSystemError) {
                try FileSystem.writeAtomically(Array((id + "\n").utf8), toPath: path, permissions: 0o600, durable: true)
                return true
            } catch {
                OperatorLog.warning("crownpager: warning: could not keep the MQTT client id in \(path): \(error)")
                return false
            }
        }
    }
}
