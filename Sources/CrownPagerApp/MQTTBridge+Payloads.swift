import LinuxSystem
import PagerEngine

/// What the bridge reads from a payload or a file on its own: a notification, the password.
extension MQTTBridge {
    /// A notification from `payload`: JSON with `message` (and `title`, `priority`: passive,
    /// active or critical), else the whole text as its message.
    static func notification(_ payload: [UInt8]) -> PagerNotification? {
        guard case .success(let text) = MQTTPayload.value(of: payload, json: nil, gauge: false) else { return nil }
        let field = { (name: String) -> String? in
            guard case .success(let value) = MQTTPayload.value(of: payload, json: name, gauge: false) else {
                return nil
            }
            return value
        }
        guard let message = field("message") else { return PagerNotification(message: text) }
        let priority = field("priority").flatMap { PagerNotification.Priority(rawValue: $0) } ?? .active
        return PagerNotification(message: message, title: field("title"), priority: priority)
    }

    /// The first line of the password file, which only root or the service's user may own and
    /// others may not read.
    static func password(at path: String) throws(CrownPagerError) -> String {
        try MQTTPrivateFile.check(path, setting: "password_file", create: "with the password on its first line")
        let text: String
        do { text = try FileSystem.readText(atPath: path, maximumBytes: 4096) } catch { throw .readFile(error) }
        return String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }
}

/// Why a command's payload was ignored, for the journal.
struct MQTTCommandProblem: Error, CustomStringConvertible {
    /// The few words the journal shows.
    var description: String

    init(_ description: String) { self.description = description }
}
