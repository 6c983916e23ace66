import PagerConfig
import PagerSettings
import TestSupport
import Testing

private func parseConfiguration(_ text: String) throws(ConfigError) -> Configuration {
    try Configuration(parsing: text, file: "test.toml", files: OnePixelFiles())
}

/// `[mqtt]`'s client certificate: certfile and keyfile both or neither, only with TLS (a key file
/// others may read is refused at start: MQTTPasswordFileTests).
@Suite struct MQTTClientCertificateTests {
    @Test func certfileAndKeyfileGoTogetherAndOnlyWithTLS() throws {
        let cases = [
            (
                "tls = true\ncertfile = \"c.crt\"", 4,
                "certfile needs its private key: add keyfile = \"/path/to/client.key\""
            ),
            (
                "tls = true\nkeyfile = \"c.key\"", 4,
                "keyfile needs its certificate: add certfile = \"/path/to/client.crt\""
            ),
            (
                "certfile = \"c.crt\"\nkeyfile = \"c.key\"", 3,
                "a client certificate is sent only over TLS: add tls = true"
            ),
        ]
        for (lines, line, message) in cases {
            do {
                _ = try parseConfiguration("[mqtt]\nhost = \"broker\"\n" + lines)
                Issue.record("no error for \(lines)")
            } catch {
                #expect(error.line == line && error.message == message, "\(error)")
            }
        }
        let both = try parseConfiguration("[mqtt]\nhost = \"b\"\ntls = true\ncertfile = \"c.crt\"\nkeyfile = \"c.key\"")
        #expect(both.mqtt.certfile == "c.crt" && both.mqtt.keyfile == "c.key")
    }

    @Test func theBaseTopicAndDiscoveryPrefixNameTopicsWithoutWildcards() throws {
        let cases = [
            ("base_topic = \"home/+/pager\"", "mqtt.base_topic", "where + and # are not allowed"),
            ("discovery_prefix = \"homeassistant/#\"", "mqtt.discovery_prefix", "where + and # are not allowed"),
            ("base_topic = \"$SYS/pager\"", "mqtt.base_topic", "must not start with $"),
            ("base_topic = \"pager/\"", "mqtt.base_topic", "without a / at either end"),
            ("base_topic = \"\"", "mqtt.base_topic", "give it one or more levels"),
        ]
        for (line, key, words) in cases {
            do {
                _ = try parseConfiguration("[mqtt]\nhost = \"broker\"\n" + line)
                Issue.record("no error for \(line)")
            } catch {
                #expect(error.line == 3 && error.key == key && error.message.contains(words), "\(error)")
            }
        }
        #expect(
            try parseConfiguration("[mqtt]\nhost = \"b\"\nbase_topic = \"home/pager 1\"").mqtt.baseTopic
                == "home/pager 1")
    }
}
