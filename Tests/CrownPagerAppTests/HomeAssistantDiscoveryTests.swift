import Foundation
import LinuxSystem
import PagerSettings
import TestSupport
import Testing

@testable import CrownPagerApp

/// Discovery's parts without a broker: the JSON escaping of titles, the slugs that keep ids stable
/// when pages move, the node id, the configs gone after a change, the topic table in the article.
@Suite struct HomeAssistantDiscoveryTests {
    @Test func titlesAreEscapedAsJSONAndReadBack() throws {
        let titles = ["Say \"hi\"", "back\\slash", "Caf\u{E9} \u{1F600}", "tab\there\nline", "bell\u{7}"]
        for title in titles {
            let text = JSONText.object([("name", .string(title))]).encoded
            let read = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String]
            #expect(read?["name"] == title, "\(text)")
        }
        #expect(JSONText.string("a\"b\u{1}").encoded == #""a\"b\u0001""#)
        #expect(JSONText.array([.number(48.5), .number(200), .integer(-3)]).encoded == "[48.5,200,-3]")
    }

    @Test func slugsFollowTitlesNotPlaces() {
        #expect(
            PageTopics.slugs(["Washer \"Mk 2\" \u{FC}", "CPU temp", "CPU  temp!", "\u{2603}", "", "Hall"])
                == ["washer_mk_2", "cpu_temp", "cpu_temp_2", "page", "page_2", "hall"])
        // Reordered, each title keeps its slug.
        #expect(PageTopics.slugs(["Hall", "Washer \"Mk 2\" \u{FC}"]) == ["hall", "washer_mk_2"])
        #expect(HomeAssistantDiscovery.nodeID("crownpager-0a1b.c d/\u{E9}") == "crownpager-0a1b_c_d__")
    }

    static func pages(_ text: String) throws -> [PageSpec] {
        try Configuration(parsing: text, file: "t.toml").pages
    }

    static let pushed = """
        [[page]]
        kind = "text"
        title = "Washer"
        source = "push"

        [[page]]
        kind = "text"
        title = "Restart"
        text = "r"
        action = ["true"]
        remote = true
        """

    @Test func oneDeviceConfigHoldsEveryComponentAndCommandsFollow() throws {
        var discovery = HomeAssistantDiscovery(
            prefix: "homeassistant", clientID: "pager", base: "crownpager/p", version: "1.0",
            pages: try Self.pages(Self.pushed))
        #expect(discovery.deviceTopic == "homeassistant/device/pager/config")
        let config = try Self.json(discovery.deviceConfig())
        let components = try #require(config["components"] as? [String: [String: Any]])
        #expect(components["page_washer"]?["platform"] as? String == "text")
        #expect(components["page_washer"]?["unique_id"] as? String == "pager_page_washer")
        #expect(components["press_restart"]?["platform"] as? String == "button")
        for (key, component) in components {
            #expect(component["unique_id"] as? String == "pager_" + key, "the unique id 0.10 gave: entity ids kept")
            #expect(component["platform"] is String)
        }
        #expect((config["device"] as? [String: Any])?["identifiers"] as? [String] == ["pager"])
        #expect((config["origin"] as? [String: Any])?["name"] as? String == "crownpager")
        #expect(config["availability_topic"] as? String == "crownpager/p/availability")
        #expect(!discovery.deviceConfig().contains("object_id"), "object_id stops working in Home Assistant 2026.4")
        #expect(
            PageTopics.commands(base: "crownpager/p", pages: try Self.pages(Self.pushed)) == [
                "crownpager/p/page/washer/set": .set(page: 1), "crownpager/p/page/restart/press": .press(page: 2),
            ])

        // A page gone: its component is sent once with its platform alone, as Home Assistant removes one.
        let before = discovery.platforms
        discovery.update(pages: Array(try Self.pages(Self.pushed).suffix(1)))
        let removed = before.filter { discovery.platforms[$0.key] == nil }
        #expect(removed == ["page_washer": "text"])
        let removal = try Self.json(discovery.deviceConfig(removing: removed))
        let gone = (removal["components"] as? [String: [String: Any]])?["page_washer"]
        #expect(gone?.count == 1 && gone?["platform"] as? String == "text")
        #expect(HomeAssistantDiscovery.components(in: Array(discovery.deviceConfig().utf8)) == discovery.platforms)
        #expect(HomeAssistantDiscovery.components(in: Array("not json".utf8)) == nil)
    }

    @Test func lastReleasesPerEntityTopicsAreKnownAndOthersAreNot() {
        let discovery = HomeAssistantDiscovery(
            prefix: "ha/disc", clientID: "pager", base: "crownpager/p", version: "1.0", pages: [])
        #expect(discovery.legacyConfigs == "ha/disc/+/pager/+/config")
        #expect(discovery.isLegacy("ha/disc/text/pager/page_washer/config"))
        #expect(!discovery.isLegacy("ha/disc/text/other/page_washer/config"), "another pager's")
        #expect(!discovery.isLegacy("ha/disc/device/pager/config"), "the device config")
        #expect(!discovery.isLegacy("homeassistant/text/pager/page_washer/config"), "another prefix")
        let off = HomeAssistantDiscovery(
            prefix: "ha", clientID: "pager", base: "b", version: "1.0", pages: [], enabled: false)
        #expect(off.platforms.isEmpty)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The MQTT article holds exactly the table `MQTTTopic` writes, between its markers.
    @Test func theArticlesTopicTableIsTheCodes() throws {
        let article = try String(
            contentsOf: SettingsReferenceTests.root.appendingPathComponent(
                "Sources/CrownPagerApp/CrownPagerApp.docc/MQTT.md"), encoding: .utf8)
        let begin = try #require(article.range(of: "<!-- mqtt-topics:begin -->\n"))
        let end = try #require(article.range(of: "\n<!-- mqtt-topics:end -->"))
        #expect(String(article[begin.upperBound..<end.lowerBound]) == MQTTTopic.reference)
    }

    @Test(.tags(.endToEnd)) func checkPrintsTheTopicTable() throws {
        let printed = try runCrownPager(["check", "--print-mqtt-topics"])
        #expect(printed.status == 0 && printed.standardOutput == MQTTTopic.reference + "\n")
    }
}
