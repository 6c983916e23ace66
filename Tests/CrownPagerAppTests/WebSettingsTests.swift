import CrownPagerApp
import Foundation
import PagerConfig
import PagerSettings
import TestSupport
import Testing

/// `[web]`: the live mirror's rows of the settings table, and what `check` says of them.
@Suite struct WebSettingsTests {
    static let token = "0123456789abcdef"

    @Test func theMirrorIsOffByDefaultAndReadsItsAddress() throws {
        #expect(Configuration.builtIn.web.listen == nil)
        #expect(Configuration.builtIn.web.endpoint == nil)
        let v4 = try parseConfiguration("[web]\nlisten = \"127.0.0.1:8080\"")
        #expect(v4.web.endpoint == WebEndpoint(parsing: "127.0.0.1:8080"))
        #expect(v4.web.endpoint?.address == "127.0.0.1")
        #expect(v4.web.endpoint?.port == 8080)
        #expect(v4.web.endpoint?.isLoopback == true)
        let v6 = try parseConfiguration("[web]\nlisten = \"[::1]:9000\"\ntoken = \"\(Self.token)\"")
        #expect(v6.web.endpoint?.address == "::1")
        #expect(v6.web.endpoint?.isIPv6 == true)
        #expect(v6.web.endpoint?.description == "[::1]:9000")
        #expect(v6.web.token == Self.token)
        #expect(v6.warnings.isEmpty)
    }

    @Test func anAddressThatIsNotAddressAndPortIsAnErrorAtItsLine() {
        for listen in [
            "localhost:8080", "127.0.0.1", "127.0.0.1:", "127.0.0.1:0", "127.0.0.1:65536", "256.0.0.1:80",
            "127.0.0.01:80", "::1:8080", "[::1]8080", "[::1:80", "[fe80::1%eth0]:80", "[1:2:3:4:5:6:7:8:9]:80",
            "1.2.3.4:8o", " 127.0.0.1:80", "[:::1]:80", "[1::2::3]:80",
        ] {
            let text = "[display]\nbrightness = 80\n[web]\nlisten = \"\(listen)\""
            do throws(ConfigErrors) {
                _ = try Configuration(checking: text, file: "test.toml")
                Issue.record("\(listen) was taken")
            } catch {
                #expect(
                    error.errors.map(\.description) == [
                        "test.toml:4: web.listen: expected a numeric address and a port, e.g. \"127.0.0.1:8080\" "
                            + "or \"[::1]:8080\", found \"\(listen)\""
                    ])
            }
        }
        for good in ["0.0.0.0:80", "192.168.1.20:8080", "[::]:8080", "[fe80::1]:1", "[1:2:3:4:5:6:7:8]:65535"] {
            #expect(WebEndpoint(parsing: good) != nil, "\(good)")
        }
    }

    @Test func aShortOrUnprintableTokenIsAnError() {
        for (token, expected) in [
            (
                "short",
                "a token of 5 characters is easy to guess: use at least 16, e.g. the output of `openssl rand -hex 16`"
            ),
            (
                "sixteen chars ok",
                "a token is sent in an HTTP header: use printable ASCII without spaces, e.g. hex digits"
            ),
        ] {
            do throws(ConfigErrors) {
                _ = try Configuration(
                    checking: "[web]\nlisten = \"127.0.0.1:8080\"\n\ntoken = \"\(token)\"", file: "t.toml")
                Issue.record("\(token) was taken")
            } catch {
                #expect(error.errors.map(\.description) == ["t.toml:4: web.token: " + expected])
            }
        }
    }

    @Test func anOpenAddressWithoutATokenIsAWarningAtItsLine() throws {
        let open = try parseConfiguration("[web]\n\nlisten = \"0.0.0.0:8080\"")
        #expect(open.warnings.map(\.description).count == 1)
        #expect(
            open.warnings.first?.description.hasPrefix("test.toml:3: web.listen: 0.0.0.0:8080 is reachable") == true)
        #expect(try parseConfiguration("[web]\nlisten = \"0.0.0.0:8080\"\ntoken = \"\(Self.token)\"").warnings.isEmpty)
        #expect(try parseConfiguration("[web]\nlisten = \"127.0.0.5:8080\"").warnings.isEmpty)
    }

    @Test func theExamplesTokenIsAWarning() throws {
        let text = "[web]\nlisten = \"127.0.0.1:8080\"\ntoken = \"\(Configuration.webTokenExample)\""
        #expect(
            try parseConfiguration(text).warnings.map(\.description) == [
                "test.toml:3: web.token: this is the example's token, which anyone can read: make your own with "
                    + "openssl rand -hex 16"
            ])
    }

    @Test(.tags(.endToEnd)) func checkPrintsTheWarningAndPasses() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path + "/web.toml"
        try "[web]\nlisten = \"0.0.0.0:8080\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let run = try runCrownPager(["check", path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.contains("crownpager: warning: \(path):2: web.listen: 0.0.0.0:8080 is reachable"))
    }
}
