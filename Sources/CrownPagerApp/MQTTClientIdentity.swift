import LinuxHardware

/// The MQTT client id a pager uses when `[mqtt] client_id` is unset: one per board, the same
/// across restarts, and different on two boards whose cards were copied from one image (a broker
/// closes the older of two connections with one id, and two such pagers would take the
/// connection from each other forever).
///
/// In order: the board's serial number (a Raspberry Pi's, from the device tree); else an id made
/// once from random bytes and kept in the service's state folder (`$STATE_DIRECTORY/mqtt-client-id`,
/// made after the card was copied, at the first start); else `/etc/machine-id` (outside the
/// service: a run by hand); else the host's name.
package struct MQTTClientIdentity: Hashable {
    /// The client id: `crownpager-` and 12 letters or digits.
    package var clientID: String
    /// Where it came from, for the journal: "the board's serial number", ….
    package var origin: String

    /// The file in the state folder that keeps a made id.
    package static let fileName = "mqtt-client-id"

    /// The identity for this board; `stateDirectory` is the service's state folder, if it has one.
    package static func current(stateDirectory: String?) -> Self {
        choose(
            serial: HostIdentity.boardSerial(), kept: stateDirectory.map(KeptIdentity.init(folder:)),
            machineID: HostIdentity.machineID(), hostname: (try? SystemReadings.hostname()) ?? "pager")
    }

    /// The decision, given what was read: a serial, the kept id (read, or made and written), the
    /// machine id, the host name.
    package static func choose(serial: String?, kept: KeptIdentity?, machineID: String?, hostname: String) -> Self {
        if let serial {
            return Self(clientID: "crownpager-" + String(serial.suffix(12)), origin: "the board's serial number")
        }
        if let kept, let id = kept.id() { return Self(clientID: "crownpager-" + id, origin: "kept in \(kept.path)") }
        if let machineID {
            return Self(clientID: "crownpager-" + String(machineID.prefix(12)), origin: "/etc/machine-id")
        }
        return Self(clientID: "crownpager-" + hostname, origin: "the host name")
    }

    /// An id kept in a file of the state folder: read if it is there and well formed, else made
    /// from 6 random bytes and written (atomically, durably, readable by the service alone).
    package struct KeptIdentity: Hashable {
        /// The file.
        package var path: String

        package init(folder: String) { path = folder + "/" + MQTTClientIdentity.fileName }

        /// The 12 hexadecimal digits kept; nil when none could be read or made and kept (then
        /// the next way is taken, and the journal says why).
        package func id() -> String? {
            if let text = try? FileSystem.readText(atPath: path, maximumBytes: 64) {
                let id = text.filter { !$0.isWhitespace }
                if id.count == 12, id.allSatisfy({ $0.isHexDigit }) { return id.lowercased() }
                OperatorLog.warning("crownpager: warning: \(path) does not hold a client id; making a new one")
            }
            guard let made = HostIdentity.randomHexadecimal(bytes: 6) else { return nil }
            do throws(FileSystemError) {
                try FileSystem.writeAtomically(
                    Array((made + "\n").utf8), toPath: path, permissions: 0o600, durable: true)
            } catch {
                OperatorLog.warning("crownpager: warning: could not keep the MQTT client id in \(path): \(error)")
                return nil
            }
            return made
        }
    }
}
