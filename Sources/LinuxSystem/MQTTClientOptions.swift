import CrownVocabulary

/// One message from the broker, as the shell hands it on.
package struct MQTTMessage: Hashable, Sendable {
    /// The topic it was published on.
    package var topic: String
    /// Its bytes, unchecked: the shell decides what they mean.
    package var payload: [UInt8]
    /// Whether the broker kept it (it came with the subscription, not as news).
    package var retained: Bool

    /// A message on `topic`.
    package init(topic: String, payload: [UInt8], retained: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.retained = retained
    }
}

/// What became of the connection, for the shell's one log line per change.
package enum MQTTConnectionState: Hashable, Sendable, CustomStringConvertible {
    /// Looking up the broker's name.
    case lookingUp
    /// The TCP connection and MQTT's CONNECT are under way.
    case connecting
    /// The broker accepted the connection.
    case connected
    /// No connection: why, and when the next attempt comes.
    case waiting(reason: String, retryIn: TimeSpan)

    /// The state in a few words, for `crownpager status` and the journal.
    package var description: String {
        switch self {
        case .lookingUp: return "looking up the broker"
        case .connecting: return "connecting"
        case .connected: return "connected"
        case .waiting(let reason, let retryIn):
            return "disconnected (\(reason)); retrying in \(retryIn.milliseconds / 1000) s"
        }
    }
}

/// What the client needs to reach a broker.
package struct MQTTClientOptions: Hashable, Sendable {
    /// The broker's name or numeric address.
    package var host: String
    /// Its TCP port.
    package var port: Int = 1883
    /// MQTT's keep-alive: the broker drops a client silent this long and a half.
    package var keepalive: TimeSpan = .milliseconds(60_000)
    /// The client id the broker knows this pager by.
    package var clientID: String
    /// The user name, if the broker asks for one.
    package var username: String?
    /// Its password, read from its file by the shell.
    package var password: String?
    /// TLS, with this CA file (nil: the system's CAs in /etc/ssl/certs).
    package var tls: Bool = false
    /// The CA file that signed the broker's certificate.
    package var cafile: String?
    /// The client certificate (PEM) a broker that asks for one gets; with `keyfile`.
    package var certfile: String?
    /// The client certificate's private key (PEM); with `certfile`.
    package var keyfile: String?
    /// The message the broker publishes when this client goes silent: its topic and payload, retained.
    package var will: MQTTMessage?

    /// Options for `host`, known to the broker as `clientID`.
    package init(host: String, clientID: String) {
        self.host = host
        self.clientID = clientID
    }
}

/// Why the client could not be made.
package struct MQTTClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed, with the fix.
    package var description: String
    /// Whether libmosquitto itself is missing (a package to install), not a setting to change.
    package var libraryMissing = false
}

/// How hard the broker and the client try to deliver a message (MQTT 3.1.1, 4.3).
package enum MQTTQualityOfService: Int32, Sendable {
    /// QoS 0: sent once, never acknowledged. For states, which are published again when they
    /// change and after every connection, so a lost one is replaced; Home Assistant subscribes
    /// to them at QoS 0 by default, which is what it receives them at whatever they were sent at.
    case atMostOnce = 0
    /// QoS 1: acknowledged, and sent again until it is. For events and announcements.
    case atLeastOnce = 1
}
