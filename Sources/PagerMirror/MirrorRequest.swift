import CrownVocabulary

/// What a browser asked of the live mirror, as the HTTP library read it: the method, the path
/// without its query, the `Authorization` header and the query's `turn` and `button`.
package struct MirrorRequest: Hashable, Sendable {
    /// `GET`, `HEAD`, `POST`, ... as sent.
    package var method: String
    /// The path, decoded, without the query string.
    package var path: String
    /// The `Authorization` header, if sent: `Bearer <token>`.
    package var authorization: String?
    /// The query's `turn`: detents, `-8` to `8`, not 0.
    package var turn: String?
    /// The query's `button`: `down`, `up` or `press`.
    package var button: String?

    /// A request of `method` for `path`, with what it carries.
    package init(
        method: String, path: String, authorization: String? = nil, turn: String? = nil, button: String? = nil
    ) {
        self.method = method
        self.path = path
        self.authorization = authorization
        self.turn = turn
        self.button = button
    }
}

/// What the crown does for a browser: the facts a knob would give, stamped when the request came.
package enum MirrorCrown: Hashable, Sendable {
    /// Turned by `detents` (positive: towards later pages).
    case turn(detents: Int)
    /// The button went down; the engine decides a long press from how long until `up`.
    case down
    /// The button came up.
    case up
    /// Down and up at once: a short press.
    case press

    /// The crown's facts at `now`: what the engine takes from a knob.
    package func facts(at now: Timestamp) -> [CrownEvent] {
        switch self {
        case .turn(let detents): return [.rotated(detents: detents, at: now)]
        case .down: return [.pressed(at: now)]
        case .up: return [.released(at: now)]
        case .press: return [.pressed(at: now), .released(at: now)]
        }
    }
}

/// What the mirror answers a request with: a decision of the pure router, carried out by the shell.
package enum MirrorAnswer: Hashable, Sendable {
    /// The page (`GET /`).
    case page
    /// The glass as PNG (`GET /glass.png`).
    case glassPNG
    /// The glass's events, as they change (`GET /events`, Server-Sent Events).
    case events
    /// The crown turned or pressed (`POST /crown`, with the token): answered 204.
    case crown(MirrorCrown)
    /// Refused with `status` and a sentence saying why and what to do.
    case refused(status: Int, reason: String)

    /// The header a refusal adds: 401 names the scheme, 405 the methods allowed.
    package var extraHeader: (name: String, value: String)? {
        switch self {
        case .refused(401, _): return ("WWW-Authenticate", "Bearer realm=\"crownpager\"")
        case .refused(405, _): return ("Allow", "GET, HEAD, POST")
        default: return nil
        }
    }
}

/// Decides what the mirror answers: which paths exist, which methods they take, whether the
/// token lets a request turn the crown and what its query asks for.
package struct MirrorRouter: Sendable {
    /// The secret a request shows to turn the crown; nil: nobody may (the mirror only shows).
    package let token: String?
    /// The most detents one request may turn: a wheel's burst, not a flood.
    package static let maximumDetents = 8

    /// A router checking requests against `token`.
    package init(token: String?) {
        self.token = token
    }

    /// The answer to `request`.
    package func answer(_ request: MirrorRequest) -> MirrorAnswer {
        let reading = request.method == "GET" || request.method == "HEAD"
        switch request.path {
        case "/", "/index.html":
            return reading ? .page : Self.methodNotAllowed
        case "/glass.png":
            return reading ? .glassPNG : Self.methodNotAllowed
        case "/events":
            return reading ? .events : Self.methodNotAllowed
        case "/crown":
            guard request.method == "POST" else {
                return .refused(status: 405, reason: "the crown turns with POST /crown?turn=1 or ?button=press\n")
            }
            return crown(request)
        default:
            return .refused(status: 404, reason: "no such page: the mirror has /, /glass.png, /events and /crown\n")
        }
    }

    /// `POST /crown`: the token first, then what the query asks for.
    func crown(_ request: MirrorRequest) -> MirrorAnswer {
        guard let token else {
            return .refused(
                status: 403,
                reason: "this mirror only shows the glass: set [web] token to turn the crown from a browser\n")
        }
        guard let shown = request.authorization.flatMap(Self.bearer), Self.same(shown, token) else {
            return .refused(
                status: 401,
                reason: "turning the crown needs the token: send Authorization: Bearer <token> "
                    + "(the page takes it after # in its address)\n")
        }
        switch (request.turn, request.button) {
        case (let turn?, nil):
            guard let detents = Self.detents(turn) else {
                return .refused(
                    status: 400,
                    reason: "turn must be a whole number of detents from -\(Self.maximumDetents) to "
                        + "\(Self.maximumDetents), not 0\n")
            }
            return .crown(.turn(detents: detents))
        case (nil, "down"?): return .crown(.down)
        case (nil, "up"?): return .crown(.up)
        case (nil, "press"?): return .crown(.press)
        default:
            return .refused(status: 400, reason: "give one of turn=N or button=down, up or press\n")
        }
    }

    static let methodNotAllowed = MirrorAnswer.refused(
        status: 405, reason: "the mirror's pages are read with GET\n")

    /// `+3`, `-1`, `2` as detents within the limit; nil for 0, anything else or out of range.
    static func detents(_ text: String) -> Int? {
        var digits = Substring(text)
        var sign = 1
        if let first = digits.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.count <= 2, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let magnitude = Int(digits), (1...maximumDetents).contains(magnitude)
        else { return nil }
        return sign * magnitude
    }

    /// The token of `Bearer <token>` (the scheme's case ignored, RFC 7235 2.1); nil for another scheme.
    static func bearer(_ header: String) -> String? {
        let scheme = "bearer "
        guard header.utf8.count > scheme.utf8.count,
            String(decoding: header.utf8.prefix(scheme.utf8.count), as: UTF8.self).lowercased() == scheme
        else { return nil }
        return String(decoding: header.utf8.dropFirst(scheme.utf8.count), as: UTF8.self)
    }

    /// Whether `shown` equals `secret`, in a time that depends on their lengths alone: the
    /// comparison tells nothing of how many leading bytes were right.
    static func same(_ shown: String, _ secret: String) -> Bool {
        let left = Array(shown.utf8)
        let right = Array(secret.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            difference |= a ^ b
        }
        return difference == 0
    }
}
