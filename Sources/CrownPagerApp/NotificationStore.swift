import LinuxSystem
import PagerEngine

/// Where `run` keeps the active and critical notifications not dismissed yet, so they survive a
/// restart of the service: `$STATE_DIRECTORY/notifications`, the folder systemd makes for the
/// unit's `StateDirectory=`; for `run --mock`, `$XDG_STATE_HOME/crownpager/notifications` (else
/// `~/.local/state/crownpager/notifications`). The format is `NotificationFile`'s.
package struct NotificationStore: Hashable, Sendable {
    /// The file's name in its folder.
    static let fileName = "notifications"

    /// The file.
    package let path: String

    /// A store in the file at `path`.
    package init(path: String) { self.path = path }

    /// The store for a run, from `environment`: the service's state folder, else for the emulator
    /// the user's; nil for a panel run outside a service with `StateDirectory=`, which keeps none.
    package static func forRun(mock: Bool, environment: (String) -> String? = ProcessEnvironment.value) -> Self? {
        if let state = ProcessEnvironment.stateDirectory(environment) { return Self(path: state + "/" + fileName) }
        guard mock else { return nil }
        if let xdg = environment("XDG_STATE_HOME"), xdg.hasPrefix("/") {
            return Self(path: xdg + "/crownpager/" + fileName)
        }
        guard let home = environment("HOME"), home.hasPrefix("/") else { return nil }
        return Self(path: home + "/.local/state/crownpager/" + fileName)
    }

    /// The notifications kept by the last run; none when there is no file. A file that cannot be
    /// read is said in the journal and taken for empty; lines that do not read are skipped.
    package func load() -> [PagerNotification] {
        guard FileSystem.exists(atPath: path) else { return [] }
        do throws(FileSystemError) {
            return NotificationFile.decode(try FileSystem.readText(atPath: path, maximumBytes: 1 << 18))
        } catch {
            OperatorLog.warning("crownpager: warning: the notifications kept from the last run are lost: \(error)")
            return []
        }
    }

    /// Replaces the file with `notifications`, atomically and durably (written beside it,
    /// fsync(2)ed, renamed over it): a power cut leaves the old list or the new, never half.
    /// A failure is said in the journal; the run goes on.
    package func save(_ notifications: [PagerNotification]) {
        do throws(FileSystemError) {
            if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
                try FileSystem.createDirectory(atPath: String(path[..<slash]), permissions: 0o700)
            }
            try FileSystem.writeAtomically(
                Array(NotificationFile.encode(notifications).utf8), toPath: path, permissions: 0o600, durable: true)
        } catch {
            OperatorLog.warning(
                "crownpager: warning: could not keep the notifications for the next run: \(error) "
                    + "(the service needs StateDirectory=crownpager in its unit)")
        }
    }
}
