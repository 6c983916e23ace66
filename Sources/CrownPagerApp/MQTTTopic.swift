/// Every topic the MQTT bridge subscribes to or publishes on: the one table the bridge builds its
/// topics from and the MQTT article's reference is written from (`crownpager check --print-mqtt-topics`).
package enum MQTTTopic: CaseIterable, Sendable {
    case availability
    case page
    case pageSet
    case screen
    case crown
    case notify
    case brightness
    case brightnessSet
    case display
    case displaySet
    case pageValue
    case pageValueSet
    case pageValueAttributes
    case pagePress
    case camera
    case discoveryConfig
    case discoveryLegacyConfig
    case discoveryStatus

    /// The topic as written in the reference: under `base_topic`, or the discovery's own.
    package var pattern: String {
        switch self {
        case .availability: return "availability"
        case .page: return "page"
        case .pageSet: return "page/set"
        case .screen: return "screen"
        case .crown: return "crown"
        case .notify: return "notify"
        case .brightness: return "brightness"
        case .brightnessSet: return "brightness/set"
        case .display: return "display"
        case .displaySet: return "display/set"
        case .pageValue: return "page/<slug>/state"
        case .pageValueSet: return "page/<slug>/set"
        case .pageValueAttributes: return "page/<slug>/attributes"
        case .pagePress: return "page/<slug>/press"
        case .camera: return "glass"
        case .discoveryConfig: return "<discovery_prefix>/device/<node_id>/config"
        case .discoveryLegacyConfig: return "<discovery_prefix>/<component>/<node_id>/<object_id>/config"
        case .discoveryStatus: return "<discovery_prefix>/status"
        }
    }

    /// Whether the pager publishes on it (else it subscribes).
    package var isPublished: Bool {
        switch self {
        case .pageSet, .notify, .brightnessSet, .displaySet, .pageValueSet, .pagePress, .discoveryStatus: return false
        default: return true
        }
    }

    /// Whether what the pager publishes there is retained.
    package var isRetained: Bool {
        switch self {
        case .availability, .page, .screen, .brightness, .display, .camera, .discoveryConfig, .discoveryLegacyConfig:
            return true
        default: return false
        }
    }

    /// Whether the pager also subscribes to a topic it publishes on: to read back what the broker retains.
    package var isReadBack: Bool {
        switch self {
        case .availability, .discoveryConfig, .discoveryLegacyConfig: return true
        default: return false
        }
    }

    /// What goes there.
    package var payload: String {
        switch self {
        case .availability: return "`online`; `offline`"
        case .page: return "the current page's title"
        case .pageSet: return "a page's title, or its number from 1"
        case .screen: return "`bright`, `dimmed` or `off`"
        case .crown: return "`{\"event_type\":\"turn_forward\",\"count\":2}`"
        case .notify: return "text, or JSON `{\"message\":…,\"title\":…,\"priority\":…}`"
        case .brightness, .brightnessSet: return "0 to 100"
        case .display, .displaySet: return "`ON` or `OFF`"
        case .pageValue, .pageValueSet: return "the text, or a gauge's number"
        case .pageValueAttributes: return "`{\"characters\":300,\"cut\":true}`; `{\"value\":150,\"in_range\":false}`"
        case .pagePress: return "anything (`PRESS`)"
        case .camera: return "PNG: each pixel 2 x 2, lit and unlit in `run --palette`'s colours (white on black)"
        case .discoveryConfig: return "JSON: `device`, `origin`, `components` (empty: the device removed)"
        case .discoveryLegacyConfig: return "`{\"migrate_discovery\":true}`, then empty"
        case .discoveryStatus: return "`online` (or `offline`)"
        }
    }

    /// What it does.
    package var meaning: String {
        switch self {
        case .availability:
            return "`offline` also the last will; Home Assistant's availability. The pager reads its own `online` "
                + "back: every retained config has come by then"
        case .page: return "the current page"
        case .pageSet: return "shows the page (as `crownpager show`)"
        case .screen: return "the panel: the screen saver's state, `off` when switched off"
        case .crown:
            return "turns (`turn_forward`, `turn_back`, with the count), `press` (at release), `long_press` (once held "
                + "0.6 s, as the pager takes it: while still held)"
        case .notify: return "a notification (as `crownpager notify`); priority passive, active or critical"
        case .brightness: return "the brightness in use"
        case .brightnessSet: return "sets it in place of `display.brightness`, at once"
        case .display: return "whether the display is switched on"
        case .displaySet: return "switches it off (until on, or a turn or press) or on"
        case .pageValue:
            return "a `source = \"push\"` page's value as last set (MQTT, `crownpager set`), as its entity takes it: "
                + "a text over 255 characters cut with `…`, a gauge's number clamped to its `min` and `max`"
        case .pageValueAttributes:
            return "the entity's attributes: whether the state is all of the value, and its whole length or number"
        case .pageValueSet: return "sets that page's value (as `crownpager set`)"
        case .pagePress: return "runs a `remote = true` page's action, unconfirmed"
        case .camera:
            return "the glass, once it changed and settled, at most every `camera_interval`: Home Assistant's camera"
        case .discoveryConfig:
            return "Home Assistant's device-based discovery: every entity a component (`discovery = true`); "
                + "cleared with `discovery = false`"
        case .discoveryLegacyConfig:
            return "release 0.10's per-entity configs: found retained, migrated to the device config "
                + "(Home Assistant's `migrate_discovery`) and cleared"
        case .discoveryStatus: return "`online`: every config and state published again"
        }
    }

    /// The topic under `base` (for a page's, with its `slug`); the discovery's are built by `HomeAssistantDiscovery`.
    func topic(_ base: String, slug: String = "") -> String {
        base + "/" + pattern.split(separator: "/").map { $0 == "<slug>" ? slug : String($0) }.joined(separator: "/")
    }

    /// The topic table as the MQTT article shows it, between its markers.
    package static var reference: String {
        var lines = ["| Topic | Direction | Payload | What it does |", "|---|---|---|---|"]
        for topic in allCases {
            var direction = topic.isPublished ? (topic.isRetained ? "published, retained" : "published") : "subscribed"
            if topic.isPublished, topic.isReadBack { direction += "; subscribed" }
            lines.append("| `\(topic.pattern)` | \(direction) | \(topic.payload) | \(topic.meaning) |")
        }
        return lines.joined(separator: "\n")
    }
}
