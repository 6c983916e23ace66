import CrownVocabulary
import PagerConfig

/// `[mqtt]`: the broker the pager publishes to and takes values, notifications and pages from.
package struct MQTTSection: Hashable, Sendable {
    /// The broker's name or address; nil leaves MQTT off.
    package var host: String? = Settings.mqttHost.defaultValue
    /// Its TCP port.
    package var port: Int = Settings.mqttPort.defaultValue
    /// The user name, if the broker asks for one.
    package var username: String? = Settings.mqttUsername.defaultValue
    /// The file holding the password (its first line).
    package var passwordFile: String? = Settings.mqttPasswordFile.defaultValue
    /// The client id; nil: `crownpager-` and the machine id.
    package var clientID: String? = Settings.mqttClientID.defaultValue
    /// The topic every other is under; nil: `crownpager/<hostname>`.
    package var baseTopic: String? = Settings.mqttBaseTopic.defaultValue
    /// MQTT's keep-alive.
    package var keepalive: TimeSpan = Settings.mqttKeepalive.defaultValue
    /// TLS to the broker.
    package var tls: Bool = Settings.mqttTLS.defaultValue
    /// The CA file that signed the broker's certificate; nil: the system's.
    package var cafile: String? = Settings.mqttCAFile.defaultValue
    /// The client certificate (PEM) for a broker that asks for one; with `keyfile`.
    package var certfile: String? = Settings.mqttCertFile.defaultValue
    /// The client certificate's private key (PEM), which others may not read; with `certfile`.
    package var keyfile: String? = Settings.mqttKeyFile.defaultValue
    /// Home Assistant's MQTT discovery.
    package var discovery: Bool = Settings.mqttDiscovery.defaultValue
    /// The topic prefix Home Assistant discovers under.
    package var discoveryPrefix: String = Settings.mqttDiscoveryPrefix.defaultValue
    /// The shortest time between two pictures of the glass on the camera topic; nil: no camera.
    package var cameraInterval: TimeSpan? = Settings.mqttCameraInterval.defaultValue
}

extension Configuration {
    /// Why `[mqtt]`'s client certificate cannot be used as written (one of certfile and keyfile
    /// without the other, or either without tls), with the fix; nil when it can.
    package var mqttCertificateProblem: (key: String, message: String)? {
        switch (mqtt.certfile, mqtt.keyfile) {
        case (nil, nil): return nil
        case (_?, nil): return ("certfile", "certfile needs its private key: add keyfile = \"/path/to/client.key\"")
        case (nil, _?): return ("keyfile", "keyfile needs its certificate: add certfile = \"/path/to/client.crt\"")
        case (_?, _?):
            return mqtt.tls ? nil : ("certfile", "a client certificate is sent only over TLS: add tls = true")
        }
    }
}

extension Configuration {
    /// Why `[mqtt]`'s `base_topic` or `discovery_prefix` cannot name topics the pager publishes on,
    /// with the fix: a wildcard (`+`, `#`) or a NUL is not allowed in a topic name (MQTT 3.1.1,
    /// 4.7.1), nor is an empty one or one that starts with `$`, which brokers keep for themselves
    /// (4.7.2). Empty when both can.
    package var mqttTopicProblems: [(key: String, message: String)] {
        var problems: [(key: String, message: String)] = []
        for (key, topic) in [("base_topic", mqtt.baseTopic), ("discovery_prefix", mqtt.discoveryPrefix)] {
            guard let topic else { continue }
            if topic.isEmpty || topic.hasPrefix("/") || topic.hasSuffix("/") {
                problems.append(
                    (
                        key,
                        "\(key) names topics: give it one or more levels, e.g. \"crownpager/kitchen\", without a / at either end"
                    ))
            } else if topic.contains(where: { $0 == "+" || $0 == "#" || $0 == "\u{0}" }) {
                problems.append(
                    (key, "\(key) names the topics the pager publishes on, where + and # are not allowed: remove them"))
            } else if topic.hasPrefix("$") {
                problems.append((key, "\(key) must not start with $: brokers keep those topics for themselves"))
            }
        }
        return problems
    }
}

/// The topic a page's value comes from (`source = "mqtt"`), and the field of a JSON payload.
package struct MQTTSubscription: Hashable, Sendable {
    /// The topic to subscribe to.
    package var topic: String
    /// A dotted path into a JSON payload; nil: the whole payload is the value.
    package var json: String?

    /// Messages on `topic`, their `json` field if given.
    package init(topic: String, json: String? = nil) {
        self.topic = topic
        self.json = json
    }
}

extension Settings {
    /// `[mqtt]`: the broker. None of it changes on a reload: the connection is made once.
    package static let mqttHost = Setting<String?>(
        "mqtt.host", .string, SettingCodec<String>.string.optional(), default: nil, example: "\"192.168.1.10\"",
        reloadable: false,
        "The MQTT broker's name or address (Home Assistant's Mosquitto); unset, MQTT is off"
    ) { $0.mqtt.host = $1 }
    package static let mqttPort = Setting<Int>(
        "mqtt.port", .integer(1...65535), .integer, default: 1883, reloadable: false,
        "The broker's TCP port: 1883, or 8883 with TLS"
    ) { $0.mqtt.port = $1 }
    package static let mqttUsername = Setting<String?>(
        "mqtt.username", .string, SettingCodec<String>.string.optional(), default: nil, example: "\"crownpager\"",
        reloadable: false, "The user name the broker knows the pager by; unset, none"
    ) { $0.mqtt.username = $1 }
    package static let mqttPasswordFile = Setting<String?>(
        "mqtt.password_file", .string, SettingCodec<String>.string.optional(), default: nil,
        example: "\"/etc/crownpager/mqtt-password\"", reloadable: false,
        "A file whose first line is the password, owned by root or the service's user and not readable by others"
    ) { $0.mqtt.passwordFile = $1 }
    package static let mqttClientID = Setting<String?>(
        "mqtt.client_id", .string, SettingCodec<String>.string.optional(), default: nil,
        example: "\"crownpager-kitchen\"", reloadable: false,
        "The client id; unset, one per board: crownpager- and its serial number, else an id kept in the state folder"
    ) { $0.mqtt.clientID = $1 }
    package static let mqttBaseTopic = Setting<String?>(
        "mqtt.base_topic", .string, SettingCodec<String>.string.optional(), default: nil,
        example: "\"crownpager/kitchen\"", reloadable: false,
        "The topic the pager's own are under (availability, page, crown, notify); unset, crownpager/ and the host name"
    ) { $0.mqtt.baseTopic = $1 }
    package static let mqttKeepalive = Setting<TimeSpan>(
        "mqtt.keepalive", .duration(minimumMilliseconds: 5000, allowsNever: false), .duration,
        default: TimeSpan.milliseconds(60_000), reloadable: false,
        "MQTT's keep-alive: the broker publishes the offline will after one and a half of it without a word"
    ) { $0.mqtt.keepalive = $1 }
    package static let mqttTLS = Setting<Bool>(
        "mqtt.tls", .boolean, .boolean, default: false, reloadable: false,
        "TLS to the broker, its certificate checked against cafile (or the system's CAs) and host"
    ) { $0.mqtt.tls = $1 }
    package static let mqttCAFile = Setting<String?>(
        "mqtt.cafile", .string, SettingCodec<String>.string.optional(), default: nil,
        example: "\"/etc/crownpager/broker-ca.pem\"", reloadable: false,
        "With tls: the CA certificate (PEM) that signed the broker's; unset, the system's in /etc/ssl/certs"
    ) { $0.mqtt.cafile = $1 }
    package static let mqttCertFile = Setting<String?>(
        "mqtt.certfile", .string, SettingCodec<String>.string.optional(), default: nil,
        example: "\"/etc/crownpager/client.crt\"", reloadable: false,
        "With tls: the client certificate (PEM) for a broker that requires one (require_certificate); with keyfile"
    ) { $0.mqtt.certfile = $1 }
    package static let mqttKeyFile = Setting<String?>(
        "mqtt.keyfile", .string, SettingCodec<String>.string.optional(), default: nil,
        example: "\"/etc/crownpager/client.key\"", reloadable: false,
        "The client certificate's private key (PEM, unencrypted), owned by root or the service's user and not readable by others"
    ) { $0.mqtt.keyfile = $1 }
    package static let mqttDiscovery = Setting<Bool>(
        "mqtt.discovery", .boolean, .boolean, default: true, reloadable: false,
        "Announce the pager to Home Assistant by MQTT discovery"
    ) { $0.mqtt.discovery = $1 }
    package static let mqttDiscoveryPrefix = Setting<String>(
        "mqtt.discovery_prefix", .string, .string, default: "homeassistant", reloadable: false,
        "The topic prefix Home Assistant reads discovery from"
    ) { $0.mqtt.discoveryPrefix = $1 }
}

extension Settings {
    /// `[mqtt] camera_interval`: the glass as Home Assistant's camera. 5 s by default: a change
    /// goes out once the glass has settled, so a turn after a quiet while shows at once; a glass
    /// that keeps changing (a seconds clock, a scrolling title) goes out at most every 5 s, 4.3 KB
    /// each (a 128 x 64 panel's 256 x 128 PNG), under 1 KB/s for the broker, Home Assistant and a
    /// Pi Zero's Wi-Fi, where every second would be 4.3 KB/s, and a PNG encoded each second, for a
    /// dashboard nobody may be watching.
    package static let mqttCameraInterval = Setting<TimeSpan?>(
        "mqtt.camera_interval", .duration(minimumMilliseconds: 1000, allowsNever: true), never,
        default: TimeSpan.milliseconds(5000), reloadable: false,
        "The glass as a Home Assistant camera: a PNG when it changes and has settled, at most this often; never: no camera"
    ) { $0.mqtt.cameraInterval = $1 }
}
