import Foundation
import LinuxHardware
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

    @Test func aChangeNamesTheConfigsGoneAndCommandsFollow() throws {
        var discovery = HomeAssistantDiscovery(
            prefix: "homeassistant", clientID: "pager", base: "crownpager/p", version: "1.0",
            pages: try Self.pages(Self.pushed))
        #expect(discovery.configTopics.contains("homeassistant/text/pager/page_washer/config"))
        #expect(discovery.configTopics.contains("homeassistant/button/pager/press_restart/config"))
        #expect(
            PageTopics.commands(base: "crownpager/p", pages: try Self.pages(Self.pushed)) == [
                "crownpager/p/page/washer/set": .set(page: 1), "crownpager/p/page/restart/press": .press(page: 2),
            ])
        let gone = discovery.update(pages: Array(try Self.pages(Self.pushed).suffix(1)))
        #expect(gone == ["homeassistant/text/pager/page_washer/config"])
        let leftOver = { (topic: String, retained: Bool) in
            discovery.isLeftOver(MQTTMessage(topic: topic, payload: Array("{}".utf8), retained: retained))
        }
        #expect(leftOver("homeassistant/text/pager/page_washer/config", true))
        #expect(!leftOver("homeassistant/text/pager/page_washer/config", false), "published by this run")
        #expect(!leftOver("homeassistant/button/pager/press_restart/config", true), "still there")
        #expect(!leftOver("homeassistant/text/other/page_washer/config", true), "another pager's")
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
