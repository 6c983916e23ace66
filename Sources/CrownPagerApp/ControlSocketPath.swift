import LinuxSystem
import PagerControl

/// Where the control socket is: the service's under its `RuntimeDirectory`, a user's mock under
/// `$XDG_RUNTIME_DIR`.
package enum ControlSocketPath {
    /// The service's socket: systemd makes `/run/crownpager` (`RuntimeDirectory=crownpager`).
    package static let service = "/run/crownpager/control.sock"

    /// `$XDG_RUNTIME_DIR/crownpager/control.sock`; nil without `XDG_RUNTIME_DIR`.
    package static var user: String? {
        guard let folder = ProcessEnvironment.value("XDG_RUNTIME_DIR"), folder.hasPrefix("/") else {
            return nil
        }
        return folder + "/crownpager/control.sock"
    }

    /// Where a run listens unless `--socket` says: the service's when the run drives a panel and
    /// may write the service's folder; else (the mock, a user's run) the user's, its folder made
    /// (0700) when missing; nil when there is neither.
    package static func forRun(
        mock: Bool, mayWrite: (String) -> Bool = FileSystem.isWritable(atPath:)
    ) -> String? {
        // Under the unit the run is user crownpager, not root: systemd made the folder for it
        // (RuntimeDirectory=), and the group's members, who may only connect, cannot write it.
        if !mock, mayWrite(String(service.dropLast("/control.sock".count))) { return service }
        guard let user else { return nil }
        let folder = String(user.dropLast("/control.sock".count))
        // A folder that cannot be made shows in the listen's own error, with its path.
        if !FileSystem.exists(atPath: folder) { try? FileSystem.createDirectory(atPath: folder, permissions: 0o700) }
        return user
    }

    /// Where a command (`notify`, `show`, `set`, `status`) connects unless `--socket` says: of the
    /// service's and the user's, the first that exists (the service's first for root); else the
    /// first, to name in the message.
    package static func forClient() -> String {
        let candidates =
            ProcessEnvironment.isRoot ? [service] + (user.map { [$0] } ?? []) : (user.map { [$0] } ?? []) + [service]
        return candidates.first { FileSystem.exists(atPath: $0) } ?? candidates[0]
    }
}

/// A command's request through the control socket.
package enum ControlClient {
    /// Sends `request` to the pager at `path` and returns its answer.
    package static func send(_ request: ControlRequest, to path: String) throws(ControlSocketError) -> ControlResponse {
        let connection = try ControlConnection(connectingTo: path)
        let line = try connection.exchange(request.line)
        guard let response = ControlResponse(parsing: line) else { throw .noAnswer(path: path) }
        return response
    }
}
