import LinuxHardware
import PagerControl
import PagerEngine
import PagerSettings

/// Home Assistant's MQTT discovery for one pager (`[mqtt] discovery`): one device, its entities'
/// retained configs under `<discovery_prefix>/<component>/<node_id>/<object_id>/config`, and the
/// configs of entities it no longer has, to clear.
struct HomeAssistantDiscovery {
    /// One entity: where its config goes and what it says besides what every entity says.
    struct Entity {
        /// Home Assistant's platform: `sensor`, `select`, `event`, `notify`, `number`, `switch`, `text`, `button`.
        var component: String
        /// Unique within the pager; a page's from the slug of its title, so reordering pages keeps it.
        var objectID: String
        /// The config's own keys, in order.
        var keys: [(String, JSONText)]
    }

    /// Where Home Assistant reads discovery (`discovery_prefix`).
    let prefix: String
    /// The pager's node: its client id in the characters discovery allows.
    let nodeID: String
    /// The pager's base topic.
    let base: String
    /// The device and origin keys every config carries.
    private let shared: [(String, JSONText)]
    /// The entities of the pages configured now, and the pager's own.
    private(set) var entities: [Entity] = []

    /// Where CrownPager's users find help (origin's `support_url`); nil while the project has no public address.
    static let supportURL: String? = nil

    /// The discovery of the pager `clientID` under `base`, version `version`, for `pages`.
    init(prefix: String, clientID: String, base: String, version: String, pages: [PageSpec]) {
        self.prefix = prefix
        nodeID = Self.nodeID(clientID)
        self.base = base
        let name = base.split(separator: "/").last.map { "CrownPager " + $0 } ?? "CrownPager"
        var origin: [(String, JSONText)] = [("name", .string("crownpager")), ("sw_version", .string(version))]
        if let url = Self.supportURL { origin.append(("support_url", .string(url))) }
        shared = [
            ("availability_topic", .string(MQTTTopic.availability.topic(base))),
            (
                "device",
                .object([
                    ("identifiers", .array([.string(nodeID)])), ("name", .string(name)),
                    ("model", .string("CrownPager")),
                    ("manufacturer", .string("CrownPager")), ("sw_version", .string(version)),
                ])
            ),
            ("origin", .object(origin)),
        ]
        update(pages: pages)
    }

    /// The entities for `pages`; returns the config topics of the entities that went.
    @discardableResult
    mutating func update(pages: [PageSpec]) -> [String] {
        let before = Set(configTopics)
        entities = Self.pagerEntities(base: base, titles: pages.map { $0.title })
        for (spec, slug) in zip(pages, PageTopics.slugs(pages.map { $0.title })) {
            if let entity = Self.pageEntity(spec, slug: slug, base: base) { entities.append(entity) }
        }
        let now = Set(configTopics)
        return before.subtracting(now).sorted()
    }

    /// Every entity's config topic, in order.
    var configTopics: [String] { entities.map(configTopic) }

    /// Where `entity`'s config goes.
    func configTopic(_ entity: Entity) -> String { "\(prefix)/\(entity.component)/\(nodeID)/\(entity.objectID)/config" }

    /// Every config and its JSON, in order.
    var configs: [(topic: String, payload: String)] {
        entities.map { entity in
            let keys =
                entity.keys + [("unique_id", .string(nodeID + "_" + entity.objectID))] + shared
            return (configTopic(entity), JSONText.object(keys).encoded)
        }
    }

    /// The filter that brings back every config this pager published, from this run or one before.
    var ownConfigs: String { "\(prefix)/+/\(nodeID)/+/config" }

    /// Where Home Assistant says it started (`online`).
    var status: String { prefix + "/status" }

    /// Whether `message` is a config retained from before whose entity is gone: it is cleared.
    /// What the broker sends at subscription time is flagged retained; what this run publishes
    /// comes back unflagged, and empty configs are already cleared.
    func isLeftOver(_ message: MQTTMessage) -> Bool {
        guard message.retained, !message.payload.isEmpty else { return false }
        let parts = message.topic.split(separator: "/", omittingEmptySubsequences: false)
        let prefixParts = prefix.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == prefixParts.count + 4, Array(parts.prefix(prefixParts.count)) == prefixParts,
            parts[prefixParts.count + 1] == nodeID, parts.last == "config"
        else { return false }
        return !configTopics.contains(message.topic)
    }

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
    private static func pagerEntities(base: String, titles: [String]) -> [Entity] {
        var entities = [
            Entity(
                component: "sensor", objectID: "page",
                keys: [
                    ("name", .string("Page")), ("state_topic", .string(MQTTTopic.page.topic(base))),
                    ("icon", .string("mdi:book-open-page-variant")),
                ]),
            Entity(
                component: "event", objectID: "crown",
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
                Entity(
                    component: "select", objectID: "page_select",
                    keys: [
                        ("name", .string("Show page")), ("state_topic", .string(MQTTTopic.page.topic(base))),
                        ("command_topic", .string(MQTTTopic.pageSet.topic(base))),
                        ("options", .array(options.map { .string($0) })),
                    ]))
        }
        // Home Assistant's notify action sends the message alone: one entity per priority says it.
        for (objectID, priority, name) in [
            ("notify", "active", "Message"), ("notify_passive", "passive", "Message passive"),
            ("notify_critical", "critical", "Message critical"),
        ] {
            entities.append(
                Entity(
                    component: "notify", objectID: objectID,
                    keys: [
                        ("name", .string(name)), ("command_topic", .string(MQTTTopic.notify.topic(base))),
                        (
                            "command_template",
                            .string("{\"message\": {{ value | to_json }}, \"priority\": \"\(priority)\"}")
                        ),
                    ]))
        }
        entities.append(
            Entity(
                component: "number", objectID: "brightness",
                keys: [
                    ("name", .string("Brightness")), ("state_topic", .string(MQTTTopic.brightness.topic(base))),
                    ("command_topic", .string(MQTTTopic.brightnessSet.topic(base))), ("min", .integer(0)),
                    ("max", .integer(100)), ("step", .integer(1)), ("unit_of_measurement", .string("%")),
                    ("entity_category", .string("config")), ("icon", .string("mdi:brightness-6")),
                ]))
        entities.append(
            Entity(
                component: "switch", objectID: "display",
                keys: [
                    ("name", .string("Display")), ("state_topic", .string(MQTTTopic.display.topic(base))),
                    ("command_topic", .string(MQTTTopic.displaySet.topic(base))), ("icon", .string("mdi:monitor")),
                ]))
        return entities
    }

    /// A pushed text page's `text`, a pushed gauge's `number`, a `remote = true` action's `button`; nil for others.
    private static func pageEntity(_ spec: PageSpec, slug: String, base: String) -> Entity? {
        let name: (String, JSONText) = ("name", .string(spec.title))
        if spec.action?.isRemote == true {
            return Entity(
                component: "button", objectID: "press_" + slug,
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
            return Entity(component: "number", objectID: "page_" + slug, keys: keys)
        case .text:
            return Entity(
                component: "text", objectID: "page_" + slug,
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
