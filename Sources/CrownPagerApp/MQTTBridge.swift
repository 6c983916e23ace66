import CrownVocabulary
import Glibc
import LinuxHardware
import PagerEngine
import PagerSettings

/// The pager on an MQTT broker (`[mqtt]`): the messages it takes become the engine inputs the
/// control socket gives (`set`, `show`, `notify`), never a path of their own; what the pager
/// does is published under the base topic.
///
/// Topics under `base_topic`: `availability` (`online`/`offline`, retained, `offline` also the
/// last will), `page` (the current page's title, retained), `screen` (`bright`, `dimmed`, `off`,
/// retained), `crown` (`{"event":"turn_forward","count":2}`, `press`, `long_press`); it takes
/// `notify` (plain text, or JSON with message, title, priority) and `page/set` (a title or number).
final class MQTTBridge {
    /// The connection.
    let client: MQTTClient
    /// The topic the pager's own are under.
    let base: String
    /// The pages each subscribed topic feeds: index from 0, JSON path, whether a gauge.
    private let feeds: [String: [(page: Int, json: String?, gauge: Bool)]]
    /// What was last published, so each change goes out once: the page, the screen.
    private var published: (page: String?, screen: String?) = (nil, nil)
    /// When the crown's button went down, to tell a press from a long press.
    private var pressedAt: Timestamp?
    /// A press held this long is a long press.
    private let longPress: TimeSpan
    /// The last connection state logged.
    private var lastState: MQTTConnectionState?

    /// The bridge `configuration` asks for; nil when `[mqtt]` has no host. A password file others
    /// may read, or one that cannot be read, is an error with the fix.
    init?(_ configuration: Configuration) throws(CrownPagerError) {
        let settings = configuration.mqtt
        guard let host = settings.host, !host.isEmpty else { return nil }
        base = settings.baseTopic ?? "crownpager/" + Self.hostname()
        var options = MQTTClientOptions(host: host, clientID: settings.clientID ?? Self.defaultClientID())
        options.port = settings.port
        options.keepalive = settings.keepalive
        options.username = settings.username
        options.password = try settings.passwordFile.map { path throws(CrownPagerError) in try Self.password(at: path) }
        options.tls = settings.tls
        options.cafile = settings.cafile
        options.certfile = settings.certfile
        options.keyfile = try settings.keyfile.map { path throws(CrownPagerError) in
            try MQTTPrivateFile.check(path, setting: "keyfile", create: "with the certificate's private key")
        }
        options.will = MQTTMessage(topic: base + "/availability", payload: Array("offline".utf8), retained: true)
        do { client = try MQTTClient(options) } catch {
            throw error.libraryMissing ? .mqttUnavailable(error.description) : .mqtt(error.description)
        }
        longPress = configuration.crown.crownConfiguration.longPressDuration
        var feeds: [String: [(page: Int, json: String?, gauge: Bool)]] = [:]
        for (index, page) in configuration.pages.enumerated() {
            guard let feed = page.push?.mqtt else { continue }
            let gauge: Bool
            if case .gauge = page.kind { gauge = true } else { gauge = false }
            feeds[feed.topic, default: []].append((index, feed.json, gauge))
        }
        self.feeds = feeds
        for topic in feeds.keys.sorted() { client.subscribe(topic) }
        client.subscribe(base + "/notify")
        client.subscribe(base + "/page/set")
    }

    /// What the engine is to do for `message`, and the log lines it is worth.
    func inputs(for message: MQTTMessage) -> (inputs: [EngineInput], log: [String]) {
        var inputs: [EngineInput] = []
        var log: [String] = []
        if message.topic == base + "/notify" {
            guard let notification = Self.notification(message.payload) else {
                return ([], ["crownpager: mqtt: \(message.topic): ignored: not UTF-8 text of at most 64 KiB"])
            }
            return ([.notify(notification)], [])
        }
        if message.topic == base + "/page/set" {
            guard case .success(let page) = MQTTPayload.value(of: message.payload, json: nil, gauge: false) else {
                return ([], ["crownpager: mqtt: \(message.topic): ignored: not a page's title or number"])
            }
            return ([.control(.show(page: page.trimmingCharacters), reply: Self.replyID)], [])
        }
        for feed in feeds[message.topic] ?? [] {
            let reference = String(feed.page + 1)
            switch MQTTPayload.value(of: message.payload, json: feed.json, gauge: feed.gauge) {
            case .success(let value): inputs.append(.control(.set(page: reference, value: value), reply: Self.replyID))
            case .failure(let problem):
                inputs.append(.control(.mark(page: reference, problem: problem.mark), reply: Self.replyID))
                log.append("crownpager: mqtt: \(message.topic) (page \(reference)): ignored: \(problem)")
            }
        }
        return (inputs, log)
    }

    /// The `reply` of the inputs MQTT gives: no control client has it, so no answer goes anywhere.
    static let replyID = -1

    /// Publishes a crown event: a turn with its count, a press or a long press (at release).
    func crown(_ event: CrownEvent) {
        switch event {
        case .rotated(let detents, _) where detents != 0:
            publishCrown(detents > 0 ? "turn_forward" : "turn_back", count: abs(detents))
        case .pressed(let at): pressedAt = at
        case .released(let at):
            guard let down = pressedAt else { return }
            pressedAt = nil
            publishCrown(at - down >= longPress ? "long_press" : "press", count: 1)
        default: break
        }
    }

    private func publishCrown(_ name: String, count: Int) {
        client.publish(base + "/crown", "{\"event\":\"\(name)\",\"count\":\(count)}", retain: false)
    }

    /// Publishes the page and the screen's state when they changed (all again after a reconnection).
    func observe(_ snapshot: EngineSnapshot) {
        guard client.state == .connected else { return }
        if published.page != snapshot.title, client.publish(base + "/page", snapshot.title, retain: true) {
            published.page = snapshot.title
        }
        let screen = "\(snapshot.screen)"
        if published.screen != screen, client.publish(base + "/screen", screen, retain: true) {
            published.screen = screen
        }
    }

    /// After a connection: `online`, and the state afresh at the next `observe`.
    func connected() {
        client.publish(base + "/availability", "online", retain: true)
        published = (nil, nil)
    }

    /// Whether `state` is worth a line in the journal: a connection, or a failure for a new reason
    /// (not each retry of the same one, nor the attempts between).
    func noteState(_ state: MQTTConnectionState) -> Bool {
        switch state {
        case .lookingUp, .connecting: return false
        case .connected:
            lastState = state
            return true
        case .waiting(let reason, _):
            if case .waiting(let last, _)? = lastState, last == reason { return false }
            lastState = state
            return true
        }
    }

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

    /// The host's name, for the default base topic.
    static func hostname() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "pager" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "pager" : name
    }

    /// `crownpager-` and the first 12 characters of the machine id (the host name without one).
    static func defaultClientID() -> String {
        let id = (try? FileSystem.readText(atPath: "/etc/machine-id", maximumBytes: 256)) ?? ""
        let trimmed = id.filter { $0.isHexDigit }
        return "crownpager-" + (trimmed.isEmpty ? hostname() : String(trimmed.prefix(12)))
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

extension String {
    /// The text without white space and line ends around it.
    fileprivate var trimmingCharacters: String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
