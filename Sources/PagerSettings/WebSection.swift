import CrownVocabulary
import PagerConfig

/// `[web]`: the device's live mirror over HTTP (CrownPagerApp's LiveMirror article): the glass in
/// a browser, `GET /glass.png`, and with a token the crown from the browser. Off unless `listen`.
package struct WebSection: Hashable, Sendable {
    /// Where the mirror listens, `address:port`, as written; nil leaves it off.
    package var listen: String? = Settings.webListen.defaultValue
    /// The secret a browser shows to turn the crown and press; nil: the mirror only shows the glass.
    package var token: String? = Settings.webToken.defaultValue

    /// `listen` read as an address and a port; nil when unset or not valid (`check` says why).
    package var endpoint: WebEndpoint? { listen.flatMap(WebEndpoint.init(parsing:)) }
}

/// A numeric IP address and a TCP port to listen on: `127.0.0.1:8080` or `[::1]:8080`.
///
/// Only numeric addresses: a name would need a lookup at start, and the mirror is meant for the
/// loopback (behind a proxy or an SSH tunnel) or one address of the device.
package struct WebEndpoint: Hashable, Sendable {
    /// The address as inet_pton(3) reads it, without brackets: `127.0.0.1`, `::1`, `0.0.0.0`.
    package var address: String
    /// The TCP port, 1 to 65535.
    package var port: Int
    /// Whether the address is IPv6.
    package var isIPv6: Bool

    /// `text` read as `a.b.c.d:port` or `[v6]:port`; nil for anything else.
    package init?(parsing text: String) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return nil
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
            guard Self.isIPv6(host) else { return nil }
            isIPv6 = true
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            guard Self.isIPv4(host) else { return nil }
            isIPv6 = false
        }
        guard !portText.isEmpty, portText.utf8.count <= 5, portText.utf8.allSatisfy(Self.isDigit),
            let port = Int(portText), (1...65535).contains(port)
        else { return nil }
        address = String(host)
        self.port = port
    }

    /// Whether only this machine can reach the address: 127.0.0.0/8 or ::1.
    package var isLoopback: Bool { isIPv6 ? address == "::1" : address.hasPrefix("127.") }

    /// `127.0.0.1:8080`, `[::1]:8080`.
    package var description: String { isIPv6 ? "[\(address)]:\(port)" : "\(address):\(port)" }

    /// Four decimal numbers 0 to 255 without leading zeros, dot-separated.
    static func isIPv4(_ text: Substring) -> Bool {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                (1...3).contains(part.count) && part.allSatisfy(isDigit)
                    && (part.count == 1 || part.first != UInt8(ascii: "0"))
                    && part.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } <= 255
            }
    }

    /// Hexadecimal groups of up to four digits, eight of them or fewer around one `::`; no zone,
    /// no embedded IPv4 (inet_pton(3) reads what this accepts). Bytes, not characters: the
    /// settings compile for microcontrollers and WebAssembly too (Scripts/dev/check-embedded.sh).
    static func isIPv6(_ text: Substring) -> Bool {
        let colon = UInt8(ascii: ":")
        let bytes = Array(text.utf8)
        guard (2...39).contains(bytes.count), bytes.allSatisfy({ $0 == colon || isHexDigit($0) }) else { return false }
        // The runs of colons: one each between groups, at most one run of two (the `::`), none longer.
        var runs: [Int] = []
        var run = 0
        for byte in bytes + [0] {
            if byte == colon {
                run += 1
            } else if run > 0 {
                runs.append(run)
                run = 0
            }
        }
        let compressed = runs.contains(2)
        guard runs.allSatisfy({ $0 <= 2 }), runs.filter({ $0 == 2 }).count <= 1 else { return false }
        // A lone colon at either end belongs to no `::`.
        if bytes.first == colon, bytes.count < 2 || bytes[1] != colon { return false }
        if bytes.last == colon, bytes[bytes.count - 2] != colon { return false }
        let groups = bytes.split(separator: colon, omittingEmptySubsequences: true)
        guard groups.allSatisfy({ $0.count <= 4 }) else { return false }
        return compressed ? groups.count <= 7 : groups.count == 8
    }

    static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }
}

extension Configuration {
    /// The fewest characters a `[web]` token may have: 16 random characters are out of reach of
    /// guessing over HTTP.
    package static let webTokenMinimumLength = 16
    /// The token of the default file's example: anyone can read it, so `check` warns of it.
    package static let webTokenExample = "3f9c2b7e81d04a6c95e1f0b2d7a8c4e6"

    /// `[web]`'s mistakes, with the fix: a `listen` that is not `address:port`, a token too short
    /// or with characters a header cannot carry. Empty when there are none.
    package var webProblems: [(key: String, message: String)] {
        var problems: [(key: String, message: String)] = []
        if let listen = web.listen, web.endpoint == nil {
            problems.append(
                (
                    "listen",
                    "expected a numeric address and a port, e.g. \"127.0.0.1:8080\" or \"[::1]:8080\", found \"\(listen)\""
                ))
        }
        if let token = web.token {
            if token.unicodeScalars.count < Self.webTokenMinimumLength {
                problems.append(
                    (
                        "token",
                        "a token of \(token.unicodeScalars.count) characters is easy to guess: use at least "
                            + "\(Self.webTokenMinimumLength), e.g. the output of `openssl rand -hex 16`"
                    ))
            } else if !token.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) {
                problems.append(
                    ("token", "a token is sent in an HTTP header: use printable ASCII without spaces, e.g. hex digits"))
            }
        }
        return problems
    }

    /// `[web]`'s risks that are allowed but worth a word: a mirror other machines reach without a
    /// token shows the glass to anyone on the network.
    package var webWarnings: [(key: String, message: String)] {
        var warnings: [(key: String, message: String)] = []
        if web.token == Self.webTokenExample {
            warnings.append(
                ("token", "this is the example's token, which anyone can read: make your own with openssl rand -hex 16")
            )
        }
        if let endpoint = web.endpoint, !endpoint.isLoopback, web.token == nil {
            warnings.append(
                (
                    "listen",
                    "\(endpoint.description) is reachable from other machines and no token is set: anyone there "
                        + "sees the glass; listen on 127.0.0.1, or set a token and open the port to one address "
                        + "(Hardware/crownpager-web.conf.example)"
                ))
        }
        return warnings
    }
}

extension Settings {
    /// `[web]`: the live mirror. Made once at start: a reload keeps the running one.
    package static let webListen = Setting<String?>(
        "web.listen", .string, SettingCodec<String>.string.optional(), default: nil, example: "\"127.0.0.1:8080\"",
        reloadable: false,
        "Serve the live mirror (the glass in a browser, /glass.png) on this numeric address and port; unset, off"
    ) { $0.web.listen = $1 }
    package static let webToken = Setting<String?>(
        "web.token", .string, SettingCodec<String>.string.optional(), default: nil,
        example: "\"\(Configuration.webTokenExample)\"", reloadable: false,
        "The secret a browser gives to turn the crown and press: 16 or more printable characters, e.g. from "
            + "openssl rand -hex 16; unset, the mirror only shows"
    ) { $0.web.token = $1 }
}
