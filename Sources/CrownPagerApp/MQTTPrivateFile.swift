import LinuxSystem

/// The check of `[mqtt]`'s secrets (the password file, the client certificate's key): a file only
/// root or the service's user may own and others may not read, as ssh treats its keys.
enum MQTTPrivateFile {
    /// `path` when it may be used for `setting`; otherwise an error with the fix (`create`: what
    /// the file holds, for the message when it is missing).
    @discardableResult
    static func check(_ path: String, setting: String, create: String) throws(CrownPagerError) -> String {
        let status: FileOwnership
        do {
            status = try FileSystem.ownership(atPath: path)
        } catch {
            let reason = error.errno?.sentence ?? error.description
            throw .mqtt("\(setting) \(path) cannot be read: \(reason): create it \(create)")
        }
        guard status.userID == 0 || status.userID == ProcessEnvironment.userID else {
            throw .mqtt(
                "\(setting) \(path) is owned by uid \(status.userID), neither root nor the service's user: "
                    + "chown root \(path)")
        }
        guard status.permissions & 0o007 == 0 else {
            throw .mqtt(
                "\(setting) \(path) may be read by others (mode \(String(status.permissions & 0o777, radix: 8))): "
                    + "chmod 640 \(path) (or 600)")
        }
        return path
    }
}
