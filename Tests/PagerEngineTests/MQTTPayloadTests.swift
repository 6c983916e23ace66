import PagerConfig
import PagerEngine
import PagerSettings
import Testing

private func parsePages(_ text: String) throws(ConfigError) -> Configuration {
    try Configuration(parsing: text, file: "t.toml", files: NoFiles())
}

/// An MQTT payload to a page's value: plain text, a JSON field, a gauge's number, and each way
/// a payload can be unusable.
@Suite struct MQTTPayloadTests {
    func value(_ text: String, json: String? = nil, gauge: Bool = false) -> Result<String, MQTTPayload.Problem> {
        MQTTPayload.value(of: Array(text.utf8), json: json, gauge: gauge)
    }

    @Test func plainTextAndNumbers() {
        #expect(value("Washer: 12 min") == .success("Washer: 12 min"))
        #expect(value(" 21.5\n", gauge: true) == .success("21.5"))
        #expect(value("warm", gauge: true) == .failure(.notANumber("warm")))
        #expect(value("nan", gauge: true) == .failure(.notANumber("nan")))
        #expect(value("inf", gauge: true) == .failure(.notANumber("inf")))
    }

    @Test func aFieldOfJSONByItsDottedPath() {
        let payload =
            #"{"sensor": {"temperature": 21.5, "name": "Kitchen \u00e9\ud83d\ude00"}, "list": [1, "two", true]}"#
        #expect(value(payload, json: "sensor.temperature", gauge: true) == .success("21.5"))
        #expect(value(payload, json: "sensor.name") == .success("Kitchen é😀"))
        #expect(value(payload, json: "list.1") == .success("two"))
        #expect(value(payload, json: "list.2") == .success("true"))
        #expect(value(payload, json: "sensor.humidity") == .failure(.noField("sensor.humidity")))
        // An object is not a value; null is none.
        #expect(value(payload, json: "sensor") == .failure(.noField("sensor")))
        #expect(value(#"{"a": null}"#, json: "a") == .failure(.noField("a")))
        #expect(value(#"{"a": "x"}"#, json: "a", gauge: true) == .failure(.notANumber("x")))
    }

    @Test func badJSONDeepJSONJunkAndSize() {
        for junk in [#"{"a": 1"#, #"{"a": 1} x"#, #"{"a": nan}"#, #"{"a": tru}"#, #"{a: 1}"#, "", #"{"a": "\x"}"#] {
            #expect(value(junk, json: "a") == .failure(.badJSON), "\(junk)")
        }
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(value(deep, json: "0") == .failure(.badJSON))
        let shallow = String(repeating: "[", count: 20) + "7" + String(repeating: "]", count: 20)
        #expect(
            value(shallow, json: Array(repeating: "0", count: 20).joined(separator: "."), gauge: true) == .success("7"))
        let large = [UInt8](repeating: 0x41, count: MQTTPayload.maximumBytes + 1)
        #expect(MQTTPayload.value(of: large, json: nil, gauge: false) == .failure(.tooLarge(bytes: large.count)))
        #expect(
            MQTTPayload.value(of: Array(large.dropLast()), json: nil, gauge: false)
                != .failure(.tooLarge(bytes: large.count - 1)))
    }

    @Test func pagesFedByMQTTAndTheirMistakes() throws {
        let configuration = try parsePages(
            """
            [mqtt]
            host = "broker.local"

            [[page]]
            kind = "gauge"
            title = "Outside"
            source = "mqtt"
            topic = "home/outside"
            json = "temperature"
            stale_after = "10min"
            """)
        #expect(configuration.mqtt.host == "broker.local" && configuration.mqtt.port == 1883)
        #expect(configuration.mqtt.discoveryPrefix == "homeassistant" && configuration.mqtt.baseTopic == nil)
        #expect(configuration.pages[0].push?.mqtt == MQTTSubscription(topic: "home/outside", json: "temperature"))
        #expect(configuration.pages[0].push?.staleAfter == .milliseconds(600_000))
        let noTopic = #"[[page]]\#nkind = "text"\#nsource = "mqtt""#
        #expect(throws: (any Error).self) { try parsePages(noTopic) }
        let wildcard = noTopic + "\ntopic = \"home/#\""
        #expect(throws: (any Error).self) { try parsePages(wildcard) }
        let notFed = #"[[page]]\#nkind = "text"\#nsource = "push"\#ntopic = "home/x""#
        #expect(throws: (any Error).self) { try parsePages(notFed) }
    }

    /// Bytes that are not UTF-8 reach the glass as U+FFFD, one a bad sequence, as a command's
    /// output does: not a refused payload.
    @Test func bytesThatAreNotUTF8ShowAsReplacementCharacters() {
        #expect(MQTTPayload.value(of: [0xFF, 0xFE, 0x41], json: nil, gauge: false) == .success("\u{FFFD}\u{FFFD}A"))
        // A stray byte in a reading, a truncated sequence at the end, an overlong encoding of "/".
        #expect(
            MQTTPayload.value(of: Array("21.5".utf8) + [0xB0, 0x43], json: nil, gauge: false)
                == .success("21.5\u{FFFD}C"))
        #expect(
            MQTTPayload.value(of: Array("ok ".utf8) + [0xE2, 0x82], json: nil, gauge: false) == .success("ok \u{FFFD}"))
        #expect(MQTTPayload.value(of: [0xC0, 0xAF], json: nil, gauge: false) == .success("\u{FFFD}\u{FFFD}"))
        // The whole payload is read as a terminal shows it, as a command's output is.
        #expect(MQTTPayload.value(of: Array("\u{1B}[1;32mOK\u{1B}[0m".utf8), json: nil, gauge: false) == .success("OK"))
        // In a JSON string, as it is read; a gauge's number is still a number or refused.
        let json = Array(#"{"a": "x"#.utf8) + [0xFF] + Array(#"y"}"#.utf8)
        #expect(MQTTPayload.value(of: json, json: "a", gauge: false) == .success("x\u{FFFD}y"))
        #expect(
            MQTTPayload.value(of: Array("21".utf8) + [0xFF], json: nil, gauge: true)
                == .failure(.notANumber("21\u{FFFD}")))
        // Valid text is untouched.
        #expect(MQTTPayload.value(of: Array("Grüße 21.5°C".utf8), json: nil, gauge: false) == .success("Grüße 21.5°C"))
    }
}
