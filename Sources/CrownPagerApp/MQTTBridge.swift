import CrownVocabulary
import GlassViews
import LinuxSystem
import PagerControl
import PagerEngine
import PagerGraphics
import PagerSettings

/// The pager on an MQTT broker (`[mqtt]`): the messages it takes become the engine inputs the
/// control socket gives (`set`, `show`, `notify`), never a path of their own; what the pager
/// does is published under the base topic.
///
/// Its topics are `MQTTTopic`'s table; Home Assistant's discovery is `HomeAssistantDiscovery`'s.
final class MQTTBridge {
    /// The connection.
    let client: MQTTClient
    /// The topic the pager's own are under.
    let base: String
    /// The client id, and where it came from.
    let identity: MQTTClientIdentity
    /// The pages each subscribed topic feeds: index from 0, JSON path, whether a gauge.
    private var feeds: [String: [(page: Int, json: String?, gauge: Bool)]] = [:]
    /// What was last published, so each change goes out once: the page, the screen, the
    /// brightness, the display switch.
    private var published: (page: String?, screen: String?, brightness: String?, display: String?) = (
        nil, nil, nil, nil
    )
    /// Home Assistant's discovery: announced with `discovery = true`, cleared with `false`.
    private var discovery: HomeAssistantDiscovery
    /// The components the broker's retained device config holds, key to platform: read at
    /// subscription, then what this pager last announced; nil while none is known.
    private var heldComponents: [String: String]?
    /// The per-entity configs of release 0.10 the broker still retains, found at subscription: to
    /// be migrated to the device config and cleared.
    private var legacyConfigs: Set<String> = []
    /// The migrated per-entity configs, cleared once the device config that took them over has
    /// come back from the broker: Home Assistant, subscribed before this pager, has it by then.
    private var migratedConfigs: Set<String> = []
    /// Connected, the pager waits for its own `online` to come back before it announces: the broker
    /// sends the retained configs at subscription, before that message, so by then it knows them.
    private var awaitingOwnOnline = false
    /// The topics that set a pushed page's value or press a remote action, by topic.
    private var pageCommands: [String: PageTopics.Command] = [:]
    /// The topics of each pushed page Home Assistant may set, by page from 0, without their last
    /// level: `<base>/page/<slug>/`, to which `state` and `attributes` are added.
    private var valueTopics: [Int: String] = [:]
    /// The pushed values last published on their state topics, by page from 0.
    private var publishedValues: [Int: EntityState] = [:]
    /// The last connection state logged.
    private var lastState: MQTTConnectionState?
    /// The discovery configs wait for the connection to hold: the last one was closed soon after
    /// it was made, as when another client took the id, and this pager may not hold the device.
    private var announceWhenHeld = false
    /// The journal was told of the connections taken away (once a run).
    private var toldOfTakeover = false
    /// The glass as Home Assistant's camera; nil with `camera_interval = "never"`.
    var camera: MQTTCamera?

    /// The bridge `configuration` asks for; nil when `[mqtt]` has no host. A password file others
    /// may read, or one that cannot be read, is an error with the fix.
    init?(_ configuration: Configuration, version: String = "unknown", palette: OLEDPalette = .white)
        throws(CrownPagerError)
    {
        let settings = configuration.mqtt
        guard let host = settings.host, !host.isEmpty else { return nil }
        base =
            settings.baseTopic ?? "crownpager/"
            + ((try? SystemReadings.hostname()).flatMap { $0.isEmpty ? nil : $0 } ?? "pager")
        identity =
            settings.clientID.map { MQTTClientIdentity(clientID: $0, origin: "[mqtt] client_id") }
            ?? MQTTClientIdentity.current(stateDirectory: ProcessEnvironment.stateDirectory())
        let clientID = identity.clientID
        var options = MQTTClientOptions(host: host, clientID: clientID)
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
        options.will = MQTTMessage(
            topic: MQTTTopic.availability.topic(base), payload: Array("offline".utf8), retained: true)
        do { client = try MQTTClient(options) } catch {
            throw error.libraryMissing ? .mqttUnavailable(error.description) : .mqtt(error.description)
        }
        for topic in [MQTTTopic.notify, .pageSet, .brightnessSet, .displaySet] { client.subscribe(topic.topic(base)) }
        discovery = HomeAssistantDiscovery(
            prefix: settings.discoveryPrefix, clientID: clientID, base: base, version: version,
            pages: configuration.pages, enabled: settings.discovery, camera: settings.cameraInterval != nil)
        if settings.cameraInterval != nil { camera = MQTTCamera(palette: palette) }
        // The pager's own `online` coming back tells it every retained config has come (`awaitingOwnOnline`).
        client.subscribe(MQTTTopic.availability.topic(base))
        if settings.discovery { client.subscribe(discovery.status) }
        client.subscribe(discovery.deviceTopic)
        client.subscribe(discovery.legacyConfigs)
        pagesChanged(configuration.pages)
    }

    /// New pages (a reload): their command topics subscribed, their entities announced, and the
    /// configs of the entities gone cleared.
    func pagesChanged(_ pages: [PageSpec]) {
        let commands = PageTopics.commands(base: base, pages: pages)
        // The bridge's own topics stay, whatever a page's `topic` was.
        let standing = Set(
            [MQTTTopic.notify, .pageSet, .brightnessSet, .displaySet, .availability].map { $0.topic(base) }
        )
        .union([discovery.status, discovery.deviceTopic, discovery.legacyConfigs])
        for topic in pageCommands.keys where commands[topic] == nil && !standing.contains(topic) {
            client.unsubscribe(topic)
        }
        pageCommands = commands
        valueTopics = [:]
        for case (let topic, .set(let page)) in commands {
            valueTopics[page - 1] = String(topic.dropLast("set".count))
        }
        publishedValues = [:]
        for topic in pageCommands.keys.sorted() { client.subscribe(topic) }
        var fresh: [String: [(page: Int, json: String?, gauge: Bool)]] = [:]
        for (index, page) in pages.enumerated() {
            guard let feed = page.push?.mqtt else { continue }
            let gauge: Bool
            if case .gauge = page.kind { gauge = true } else { gauge = false }
            fresh[feed.topic, default: []].append((index, feed.json, gauge))
        }
        for topic in feeds.keys where fresh[topic] == nil && pageCommands[topic] == nil && !standing.contains(topic) {
            client.unsubscribe(topic)
        }
        feeds = fresh
        // Again: a reload makes the pages afresh, and the broker sends the retained values anew.
        for topic in feeds.keys.sorted() { client.subscribe(topic, again: true) }
        discovery.update(pages: pages)
        announce()
    }

    /// What the engine is to do for `message`, and the log lines it is worth.
    func inputs(for message: MQTTMessage) -> (inputs: [EngineInput], log: [String]) {
        var inputs: [EngineInput] = []
        var log: [String] = []
        if discoveryMessage(message) { return ([], []) }
        switch control(message) {
        case .success(let request)?: return ([.control(request, reply: nil)], [])
        case .failure(let problem)?: return ([], ["crownpager: mqtt: \(message.topic): ignored: \(problem)"])
        case nil: break
        }
        if message.topic == MQTTTopic.notify.topic(base) {
            guard let notification = Self.notification(message.payload) else {
                return ([], ["crownpager: mqtt: \(message.topic): ignored: more than 64 KiB"])
            }
            return ([.notify(notification)], [])
        }
        if message.topic == MQTTTopic.pageSet.topic(base) {
            guard case .success(let page) = MQTTPayload.value(of: message.payload, json: nil, gauge: false) else {
                return ([], ["crownpager: mqtt: \(message.topic): ignored: not a page's title or number"])
            }
            return ([.control(.show(page: .named(page.trimmingCharacters)), reply: nil)], [])
        }
        for feed in feeds[message.topic] ?? [] {
            switch MQTTPayload.value(of: message.payload, json: feed.json, gauge: feed.gauge) {
            case .success(let value): inputs.append(.control(.set(page: .index(feed.page), value: value), reply: nil))
            case .failure(let problem):
                inputs.append(.unreadable(page: feed.page, problem: problem.mark))
                log.append("crownpager: mqtt: \(message.topic) (page \(feed.page + 1)): ignored: \(problem)")
            }
        }
        return (inputs, log)
    }

    /// Publishes what the engine reports of the crown: a turn with its count, a press, a long press.
    func crown(_ report: CrownReport) {
        switch report {
        case .turned(let detents): publishCrown(detents > 0 ? .turnForward : .turnBack, count: abs(detents))
        case .pressed: publishCrown(.press, count: 1)
        case .longPressed: publishCrown(.longPress, count: 1)
        }
    }

    private func publishCrown(_ type: CrownEventType, count: Int) {
        client.publish(
            MQTTTopic.crown.topic(base), "{\"event_type\":\"\(type.rawValue)\",\"count\":\(count)}", retain: false)
    }

    /// Publishes the page and the screen's state when they changed (all again after a reconnection).
    func observe(_ snapshot: EngineSnapshot) {
        guard client.state == .connected else { return }
        publish(.page, snapshot.title, was: &published.page)
        publish(.screen, "\(snapshot.screen)", was: &published.screen)
        publish(.brightness, String(snapshot.brightness), was: &published.brightness)
        publish(.display, snapshot.isSwitchedOff ? "OFF" : "ON", was: &published.display)
    }

    /// Publishes `value` on `topic` (retained, QoS 0: a state is published again after every
    /// connection) unless it went out last; notes it when it did.
    private func publish(_ topic: MQTTTopic, _ value: String, was last: inout String?) {
        if last != value, client.publish(topic.topic(base), value, retain: true, quality: .atMostOnce) {
            last = value
        }
    }

    /// After a connection, and when Home Assistant starts: `online`, the discovery config once that
    /// `online` has come back (every retained config has come by then, to migrate or to clear), and
    /// the state and the pushed values afresh at the next `observe`. After two connections in a
    /// row that the broker closed soon after making them, the config waits until this one has held
    /// (`announceIfHeld`): another client with the same id holds the device, and its configs are
    /// not this pager's to rewrite. (One such connection is also what a broker restarted at once
    /// looks like, which has lost the configs: MQTT 3.1.1 says nothing of why it closed.)
    func connected() {
        client.publish(MQTTTopic.availability.topic(base), "online", retain: true)
        awaitingOwnOnline = true
        published = (nil, nil, nil, nil)
        publishedValues = [:]
        camera?.connectionMade()
        publishPicture()
    }

    /// Publishes `glass` on the camera topic (retained, QoS 0: a dashboard opened later shows it),
    /// unless it is the picture published last; kept for the next connection while there is none.
    /// When is the engine's (`Effects.glassPicture`).
    func publishGlass(_ glass: Bitmap) {
        camera?.take(glass)
        publishPicture()
    }

    private func publishPicture() {
        guard client.state == .connected, let png = camera?.unpublished() else { return }
        client.publish(MQTTTopic.camera.topic(base), png, retain: true, quality: .atMostOnce)
    }

    /// Whether `message` is discovery's: Home Assistant's status, the pager's own `online` come
    /// back, its device config, or a per-entity config of release 0.10; acted on if so. What the
    /// broker sends at subscription time is flagged retained; what this run publishes comes back
    /// unflagged.
    private func discoveryMessage(_ message: MQTTMessage) -> Bool {
        let empty = message.payload.isEmpty
        switch message.topic {
        case discovery.status:
            if message.payload == Array("online".utf8) { connected() }
        case MQTTTopic.availability.topic(base):
            guard awaitingOwnOnline, !message.retained, message.payload == Array("online".utf8) else { break }
            awaitingOwnOnline = false
            if !discovery.isEnabled {
                clearDiscovery()
            } else if client.shortLivedConnections >= 2 {
                announceWhenHeld = true
            } else {
                announce()
            }
        case discovery.deviceTopic:
            if message.retained, !empty {
                heldComponents = HomeAssistantDiscovery.components(in: message.payload) ?? [:]
            } else if !message.retained, !empty, !migratedConfigs.isEmpty {
                // Step 3 of the migration: the old configs, now Home Assistant's device config's, cleared.
                for topic in migratedConfigs.sorted() { client.publish(topic, [], retain: true, quality: .atMostOnce) }
                migratedConfigs = []
            }
        case let topic where discovery.isLegacy(topic):
            if message.retained, !empty { legacyConfigs.insert(topic) }
        default:
            return false
        }
        return true
    }

    /// With `discovery = false`: the device config and the per-entity configs found retained are
    /// cleared, so Home Assistant removes the device.
    private func clearDiscovery() {
        if heldComponents != nil { client.publish(discovery.deviceTopic, [], retain: true, quality: .atMostOnce) }
        heldComponents = nil
        for topic in legacyConfigs.sorted() { client.publish(topic, [], retain: true, quality: .atMostOnce) }
        legacyConfigs = []
    }

    /// Announces the configs held back by `connected()` once the connection has lasted
    /// `MQTTClient.holdingTime` at `now`.
    func announceIfHeld(at now: Timestamp) {
        guard announceWhenHeld, let age = client.connectionAge(at: now), age >= MQTTClient.holdingTime else {
            return
        }
        announceWhenHeld = false
        announce()
    }

    /// The journal's line, once a run, when the broker keeps closing the connection soon after
    /// making it: what it does when another client connects with the same id. Nil otherwise.
    func takeoverNote() -> String? {
        guard !toldOfTakeover, client.shortLivedConnections >= 2 else { return nil }
        toldOfTakeover = true
        return "crownpager: mqtt: the broker closed the connection soon after making it, "
            + "\(client.shortLivedConnections) times in a row: another client is probably connected with client id "
            + "\(identity.clientID) (two pagers with one client_id?); backing off, up to "
            + "\(MQTTClient.maximumBackoff.milliseconds / 1000) s between attempts"
    }

    /// Publishes the device config (retained, QoS 0), when discovery is on. At QoS 0: it is
    /// announced again on every connection, and libmosquitto sends unacknowledged QoS 1
    /// messages again on the next connection, which after a takeover would rewrite the configs of
    /// a device another client now holds.
    ///
    /// Home Assistant's migration from per-entity configs, in its order: `{"migrate_discovery":true}`
    /// to each per-entity config found retained, then the device config, then (once it has come
    /// back) the per-entity configs cleared. A component the broker's device config held that the
    /// pages no longer give is sent once with its platform alone (Home Assistant removes it), then
    /// the config without it.
    private func announce() {
        guard discovery.isEnabled, client.state == .connected, !awaitingOwnOnline else { return }
        for topic in legacyConfigs.sorted() {
            client.publish(topic, HomeAssistantDiscovery.migrationPayload, retain: true, quality: .atMostOnce)
        }
        migratedConfigs.formUnion(legacyConfigs)
        legacyConfigs = []
        let now = discovery.platforms
        let removed = (heldComponents ?? [:]).filter { now[$0.key] == nil }
        if !removed.isEmpty {
            client.publish(
                discovery.deviceTopic, discovery.deviceConfig(removing: removed), retain: true, quality: .atMostOnce)
        }
        if client.publish(discovery.deviceTopic, discovery.deviceConfig(), retain: true, quality: .atMostOnce) {
            heldComponents = now
        }
    }

    /// Publishes the pushed values that changed (all again after a connection) on their pages'
    /// state topics, as their entities take them (`EntityState`), with their attributes; whoever
    /// set them: Home Assistant, `crownpager set` or the control socket.
    func observe(pushed values: [Int: EntityState]) {
        guard client.state == .connected, values != publishedValues else { return }
        for (page, value) in values.sorted(by: { $0.key < $1.key }) where publishedValues[page] != value {
            guard let topics = valueTopics[page] else { continue }
            // The attributes first: an automation woken by the state finds them already there.
            client.publish(topics + "attributes", value.attributes, retain: false, quality: .atMostOnce)
            client.publish(topics + "state", value.state, retain: false, quality: .atMostOnce)
        }
        publishedValues = values
    }

    /// The control a message on a command topic asks for, or why its payload asks for none; nil
    /// when `message` is on none of them.
    private func control(_ message: MQTTMessage) -> Result<PagerCommand, MQTTCommandProblem>? {
        let command = pageCommands[message.topic]
        let brightness = message.topic == MQTTTopic.brightnessSet.topic(base)
        guard command != nil || brightness || message.topic == MQTTTopic.displaySet.topic(base) else { return nil }
        guard case .success(let text) = MQTTPayload.value(of: message.payload, json: nil, gauge: false) else {
            return .failure(MQTTCommandProblem("more than 64 KiB"))
        }
        let word = text.trimmingCharacters
        switch command {
        case .set(let page)?: return .success(.set(page: .index(page - 1), value: text))
        case .press(let page)?: return .success(.press(page: .index(page - 1)))
        case nil where brightness:
            // Home Assistant's number may send 40.0; the engine refuses a value out of range, with the range.
            guard let percent = Double(word), percent.isFinite, abs(percent) < 1e6 else {
                return .failure(MQTTCommandProblem("not a brightness from 0 to 100"))
            }
            return .success(.brightness(percent: Int(percent.rounded())))
        case nil:
            switch word.uppercased() {
            case "ON": return .success(.display(on: true))
            case "OFF": return .success(.display(on: false))
            default: return .failure(MQTTCommandProblem("not ON or OFF"))
            }
        }
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
