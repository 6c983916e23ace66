import Glibc

/// The process's environment variables, read through getenv(3).
package enum ProcessEnvironment {
    /// The value of `name`; nil when it is unset.
    package static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The service's state folder that systemd made for `StateDirectory=`: the first of
    /// `$STATE_DIRECTORY`'s colon-parted folders (the unit's own); nil outside such a service.
    package static func stateDirectory(_ environment: (String) -> String? = value) -> String? {
        guard let first = environment("STATE_DIRECTORY")?.split(separator: ":").first, !first.isEmpty else {
            return nil
        }
        return String(first)
    }

    /// The real user id (getuid(2)): whose files a run may trust besides root's.
    package static var userID: UInt32 { getuid() }

    /// Whether the process runs with root's effective user id (geteuid(2) is 0).
    package static var isRoot: Bool { geteuid() == 0 }
}
