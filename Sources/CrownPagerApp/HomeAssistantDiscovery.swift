import LinuxSystem
import PagerControl
import PagerEngine
import PagerSettings

/// Home Assistant's device-based MQTT discovery for one pager (`[mqtt] discovery`): one retained
/// config at `<discovery_prefix>/device/<node_id>/config` holding the device, the origin and every
/// entity as a component with its `platform`; and the way from the per-entity configs
/// (`<discovery_prefix>/<component>/<node_id>/<object_id>/config`) that release 0.10 published.
///
/// Home Assistant's discovery id of a component is `<node_id> <key>`, as the id of a per-entity
/// config was `<node_id> <object_id>`: each component's key is the entity's old object id, and its
/// `unique_id` is unchanged, so the entities, their ids and their history stay.
struct HomeAssistantDiscovery {
    /// One entity: its key in `components` and what its config says besides what every one says.
    struct Component {
        /// Home Assistant's platform: `sensor`, `select`, `event`, `notify`, `number`, `switch`, `text`, `button`, `camera`.
        var platform: String
        /// Unique within the pager (the component's key); a page's from the slug of its title, so
        /// reordering pages keeps it.
        var key: String
        /// The config's own keys, in order.
        var keys: [(String, JSONText)]
    }

    /// Where Home Assistant reads discovery (`discovery_prefix`).
    let prefix: String
    /// The pager's node: its client id in the characters discovery allows.
    let nodeID: String
    /// The pager's base topic.
    let base: String
    /// Whether the pager announces itself (`discovery = true`); off, it only clears what it announced before.
    let isEnabled: Bool
    /// Whether the glass is a camera (`camera_interval` set).
    let hasCamera: Bool
    /// The device, origin and availability keys the device config carries once for every component.
    private let shared: [(String, JSONText)]
    /// The entities of the pages configured now, and the pager's own; none when discovery is off.
    private(set) var components: [Component] = []

    /// Where CrownPager's users find help (origin's `support_url`); nil while the project has no public address.
    static let supportURL: String? = nil

    /// What Home Assistant's documented migration sends to each per-entity config first: it unloads
    /// the entity but keeps its settings, for the device config to take it over.
    static let migrationPayload = "{\"migrate_discovery\":true}"

    /// The discovery of the pager `clientID` under `base`, version `version`, for `pages`.
    init(
        prefix: String, clientID: String, base: String, version: String, pages: [PageSpec], enabled: Bool = true,
        camera: Bool = false
    ) {
        self.prefix = prefix
        nodeID = Self.nodeID(clientID)
        self.base = base
        isEnabled = enabled
        hasCamera = camera
        let name = base.split(separator: "/").last.map { "CrownPager " + $0 } ?? "CrownPager"
        var origin: [(String, JSONText)] = [("name", .string("crownpager")), ("sw_version", .string(version))]
        if let url = Self.supportURL { origin.append(("support_url", .string(url))) }
        shared = [
            (
                "device",
                .object([
                    ("identifiers", .array([.string(nodeID)])), ("name", .string(name)),
                    ("model", .string("CrownPager")),
                    ("manufacturer", .string("CrownPager")), ("sw_version", .string(version)),
                ])
            ),
            ("origin", .object(origin)),
            ("availability_topic", .string(MQTTTopic.availability.topic(base))),
        ]
        update(pages: pages)
    }

    /// The components for `pages` (none when discovery is off).
    mutating func update(pages: [PageSpec]) {
        guard isEnabled else { return }
        components = Self.pagerComponents(base: base, titles: pages.map { $0.title })
        if hasCamera {
            components.append(
                Component(
                    platform: "camera", key: "glass",
                    keys: [
                        ("name", .string("Glass")), ("topic", .string(MQTTTopic.camera.topic(base))),
                        ("icon", .string("mdi:monitor-screenshot")),
                    ]))
        }
        for (spec, slug) in zip(pages, PageTopics.slugs(pages.map { $0.title })) {
            if let component = Self.pageComponent(spec, slug: slug, base: base) { components.append(component) }
        }
    }

    /// Every component's platform, by key.
    var platforms: [String: String] {
        Dictionary(components.map { ($0.key, $0.platform) }, uniquingKeysWith: { first, _ in first })
    }

    /// The device config's topic.
    var deviceTopic: String { "\(prefix)/device/\(nodeID)/config" }

    /// The device config: every component, and each of `removed` (key to platform) with its
    /// platform alone, which is how Home Assistant is told to remove a component.
    func deviceConfig(removing removed: [String: String] = [:]) -> String {
        var members: [(String, JSONText)] = components.map { component in
            let keys =
                [("platform", JSONText.string(component.platform))] + component.keys
                + [("unique_id", .string(nodeID + "_" + component.key))]
            return (component.key, JSONText.object(keys))
        }
        for (key, platform) in removed.sorted(by: { $0.key < $1.key }) {
            members.append((key, .object([("platform", .string(platform))])))
        }
        return JSONText.object(shared + [("components", .object(members))]).encoded
    }

    /// The components a device config holds, key to platform; nil when `payload` is not one.
    static func components(in payload: [UInt8]) -> [String: String]? {
        guard let keys = MQTTPayload.keys(of: payload, at: "components") else { return nil }
        var found: [String: String] = [:]
        for key in keys where !key.contains(".") {
            if case .success(let platform) = MQTTPayload.value(
                of: payload, json: "components.\(key).platform", gauge: false)
            {
                found[key] = platform
            }
        }
        return found
    }

    /// The filter that brings back the per-entity configs a pager of release 0.10 published.
    var legacyConfigs: String { "\(prefix)/+/\(nodeID)/+/config" }

    /// Whether `topic` is one of the per-entity configs of release 0.10 (`legacyConfigs`).
    func isLegacy(_ topic: String) -> Bool {
        let parts = topic.split(separator: "/", omittingEmptySubsequences: false)
        let prefixParts = prefix.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == prefixParts.count + 4 && Array(parts.prefix(prefixParts.count)) == prefixParts
            && parts[prefixParts.count + 1] == nodeID && parts.last == "config"
    }

    /// Where Home Assistant says it started (`online`).
    var status: String { prefix + "/status" }

    /// `clientID` in the characters a node id may have: letters, digits, `_` and `-`.
    static func nodeID(_ clientID: String) -> String {
        let allowed = clientID.unicodeScalars.map { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-")
                ? Character(scalar) : "_"
        }
        return allowed.isEmpty ? "crownpager" : String(allowed)
    }

    /// The pager's own entities: the page as a sensor and a select, the crown, the notifications,
    /// the brightness and the display switch.
    private static func pagerComponents(base: String, titles: [String]) -> [Component] {
        var entities = [
            Component(
                platform: "sensor", key: "page",
                keys: [
                    ("name", .string("Page")), ("state_topic", .string(MQTTTopic.page.topic(base))),
                    ("icon", .string("mdi:book-open-page-variant")),
                ]),
            Component(
                platform: "event", key: "crown",
                keys: [
                    ("name", .string("Crown")), ("state_topic", .string(MQTTTopic.crown.topic(base))),
                    ("event_types", .array(CrownEventType.allCases.map { .string($0.rawValue) })),
                    ("icon", .string("mdi:knob")),
                ]),
        ]
        var options: [String] = []
        for title in titles where !options.contains(title) { options.append(title) }
        if !options.isEmpty {
            entities.append(
                Component(
                    platform: "select", key: "page_select",
                    keys: [
                        ("name", .string("Show page")), ("state_topic", .string(MQTTTopic.page.topic(base))),
                        ("command_topic", .string(MQTTTopic.pageSet.topic(base))),
                        ("options", .array(options.map { .string($0) })),
                    ]))
        }
        // Home Assistant's notify action sends the message alone: one entity per priority says it.
        for (key, priority, name) in [
            ("notify", "active", "Message"), ("notify_passive", "passive", "Message passive"),
            ("notify_critical", "critical", "Message critical"),
        ] {
            entities.append(
                Component(
                    platform: "notify", key: key,
                    keys: [
                        ("name", .string(name)), ("command_topic", .string(MQTTTopic.notify.topic(base))),
                        (
                            "command_template",
                            .string("{\"message\": {{ value | to_json }}, \"priority\": \"\(priority)\"}")
                        ),
                    ]))
        }
        entities.append(
            Component(
                platform: "number", key: "brightness",
                keys: [
                    ("name", .string("Brightness")), ("state_topic", .string(MQTTTopic.brightness.topic(base))),
                    ("command_topic", .string(MQTTTopic.brightnessSet.topic(base))), ("min", .integer(0)),
                    ("max", .integer(100)), ("step", .integer(1)), ("unit_of_measurement", .string("%")),
                    ("entity_category", .string("config")), ("icon", .string("mdi:brightness-6")),
                ]))
        entities.append(
            Component(
                platform: "switch", key: "display",
                keys: [
                    ("name", .string("Display")), ("state_topic", .string(MQTTTopic.display.topic(base))),
                    ("command_topic", .string(MQTTTopic.displaySet.topic(base))), ("icon", .string("mdi:monitor")),
                ]))
        return entities
    }

    /// A pushed text page's `text`, a pushed gauge's `number`, a `remote = true` action's `button`; nil for others.
    private static func pageComponent(_ spec: PageSpec, slug: String, base: String) -> Component? {
        let name: (String, JSONText) = ("name", .string(spec.title))
        if spec.action?.isRemote == true {
            return Component(
                platform: "button", key: "press_" + slug,
                keys: [name, ("command_topic", .string(MQTTTopic.pagePress.topic(base, slug: slug)))])
        }
        guard let push = spec.push, push.mqtt == nil else { return nil }
        let topics: [(String, JSONText)] = [
            ("state_topic", .string(MQTTTopic.pageValue.topic(base, slug: slug))),
            ("command_topic", .string(MQTTTopic.pageValueSet.topic(base, slug: slug))),
            ("json_attributes_topic", .string(MQTTTopic.pageValueAttributes.topic(base, slug: slug))),
        ]
        switch spec.kind {
        case .gauge(let gauge):
            var keys = [name] + topics
            keys += [("min", .number(gauge.minimum)), ("max", .number(gauge.maximum)), ("step", .number(0.1))]
            keys.append(("mode", .string("box")))
            if !gauge.unit.isEmpty { keys.append(("unit_of_measurement", .string(gauge.unit))) }
            return Component(platform: "number", key: "page_" + slug, keys: keys)
        case .text:
            return Component(
                platform: "text", key: "page_" + slug,
                keys: [name] + topics + [("max", .integer(EntityState.textMaximum))])
        default:
            return nil
        }
    }
}

/// The crown's events as Home Assistant's `event` entity names them (`event_type`).
enum CrownEventType: String, CaseIterable {
    case turnForward = "turn_forward"
    case turnBack = "turn_back"
    case press
    case longPress = "long_press"
}

/// The topics of the pages MQTT sets and presses, by slug: `page/<slug>/set`, `page/<slug>/press`.
enum PageTopics {
    /// What a message on a page's topic asks for, the page numbered from 1.
    enum Command: Equatable {
        /// A pushed value for the page.
        case set(page: Int)
        /// A remote press of the page's action.
        case press(page: Int)
    }

    /// The command topics of `pages` under `base`: a `source = "push"` page's value, a `remote = true` page's press.
    static func commands(base: String, pages: [PageSpec]) -> [String: Command] {
        var commands: [String: Command] = [:]
        for (index, (spec, slug)) in zip(pages, slugs(pages.map { $0.title })).enumerated() {
            if spec.push != nil, spec.push?.mqtt == nil {
                commands[MQTTTopic.pageValueSet.topic(base, slug: slug)] = .set(page: index + 1)
            }
            if spec.action?.isRemote == true {
                commands[MQTTTopic.pagePress.topic(base, slug: slug)] = .press(page: index + 1)
            }
        }
        return commands
    }

    /// Each title's slug: lower-case ASCII letters and digits, `_` between words, `page` when none
    /// is left; a title met again gets `_2`, `_3`, so ids stay unique and follow titles, not places.
    static func slugs(_ titles: [String]) -> [String] {
        var taken: Set<String> = []
        return titles.map { title in
            var slug = ""
            for scalar in title.lowercased().unicodeScalars {
                if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                    slug.unicodeScalars.append(scalar)
                } else if !slug.isEmpty, slug.last != "_" {
                    slug += "_"
                }
            }
            while slug.last == "_" { slug.removeLast() }
            if slug.isEmpty { slug = "page" }
            var unique = slug
            var count = 1
            while taken.contains(unique) {
                count += 1
                unique = slug + "_\(count)"
            }
            taken.insert(unique)
            return unique
        }
    }
}

/// A JSON value written with its keys in the order given, its strings escaped as RFC 8259 asks.
///
/// A struct holding the text, not an enum of the values: Swift 6.0.3 (Debian 13's) reports a
/// circular reference for an enum whose cases hold arrays of itself.
struct JSONText {
    /// The value as JSON text.
    let encoded: String

    /// A string, quoted and escaped.
    static func string(_ text: String) -> JSONText { JSONText(encoded: quoted(text)) }

    /// An integer.
    static func integer(_ value: Int) -> JSONText { JSONText(encoded: String(value)) }

    /// A number: whole numbers without `.0`; JSON has no infinity, and the table's ranges keep to finite.
    static func number(_ value: Double) -> JSONText {
        guard value.isFinite else { return JSONText(encoded: "null") }
        if value == value.rounded(), abs(value) < 1e15 { return JSONText(encoded: String(Int64(value))) }
        return JSONText(encoded: "\(value)")
    }

    /// An array of `values`, in order.
    static func array(_ values: [JSONText]) -> JSONText {
        JSONText(encoded: "[" + values.map { $0.encoded }.joined(separator: ",") + "]")
    }

    /// An object of `members`, their keys in the order given.
    static func object(_ members: [(String, JSONText)]) -> JSONText {
        JSONText(encoded: "{" + members.map { quoted($0.0) + ":" + $0.1.encoded }.joined(separator: ",") + "}")
    }

    /// `text` in quotes, escaped as `crownpager status --json` escapes its strings.
    static func quoted(_ text: String) -> String { ControlStatus.jsonString(text) }
}
