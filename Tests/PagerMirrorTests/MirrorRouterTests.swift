import CrownVocabulary
import Testing

@testable import PagerMirror

/// The live mirror's decisions: which requests it answers how, and who may turn the crown.
@Suite struct MirrorRouterTests {
    static let token = "0123456789abcdef0123"
    let router = MirrorRouter(token: MirrorRouterTests.token)

    func crown(_ authorization: String?, turn: String? = nil, button: String? = nil) -> MirrorAnswer {
        router.answer(
            MirrorRequest(method: "POST", path: "/crown", authorization: authorization, turn: turn, button: button))
    }

    @Test func thePagesAreReadWithGETOrHEAD() {
        for method in ["GET", "HEAD"] {
            #expect(router.answer(MirrorRequest(method: method, path: "/")) == .page)
            #expect(router.answer(MirrorRequest(method: method, path: "/glass.png")) == .glassPNG)
            #expect(router.answer(MirrorRequest(method: method, path: "/events")) == .events)
        }
        guard case .refused(405, _) = router.answer(MirrorRequest(method: "POST", path: "/glass.png")) else {
            Issue.record("a POST of the glass is refused")
            return
        }
        #expect(router.answer(MirrorRequest(method: "DELETE", path: "/")).extraHeader?.name == "Allow")
        guard case .refused(404, let reason) = router.answer(MirrorRequest(method: "GET", path: "/etc/passwd")) else {
            Issue.record("an unknown path is 404")
            return
        }
        #expect(reason.contains("/glass.png"))
    }

    @Test func theRightTokenTurnsAndPressesTheCrown() {
        let bearer = "Bearer \(Self.token)"
        #expect(crown(bearer, turn: "1") == .crown(.turn(detents: 1)))
        #expect(crown(bearer, turn: "+3") == .crown(.turn(detents: 3)))
        #expect(crown(bearer, turn: "-8") == .crown(.turn(detents: -8)))
        #expect(crown("bearer \(Self.token)", button: "press") == .crown(.press))
        #expect(crown(bearer, button: "down") == .crown(.down))
        #expect(crown(bearer, button: "up") == .crown(.up))
    }

    @Test func withoutTheRightTokenTheCrownDoesNotTurn() {
        for authorization in [
            nil, "", "Bearer", "Bearer ", "Bearer \(Self.token)x", "Bearer \(Self.token.dropLast())",
            "Basic \(Self.token)", Self.token, "Bearer 1123456789abcdef0123", "Bearer  \(Self.token)",
        ] {
            let answer = crown(authorization, turn: "1")
            guard case .refused(401, let reason) = answer else {
                Issue.record("\(String(describing: authorization)) gave \(answer)")
                continue
            }
            #expect(reason.contains("Authorization: Bearer"))
            #expect(answer.extraHeader?.name == "WWW-Authenticate")
        }
    }

    @Test func aMirrorWithoutATokenNeverTurnsTheCrown() {
        let open = MirrorRouter(token: nil)
        let answer = open.answer(
            MirrorRequest(method: "POST", path: "/crown", authorization: "Bearer anything", turn: "1"))
        guard case .refused(403, let reason) = answer else {
            Issue.record("\(answer)")
            return
        }
        #expect(reason.contains("[web] token"))
    }

    @Test func aQueryThatIsNotOneTurnOrOneButtonIsRefused() {
        let bearer = "Bearer \(Self.token)"
        for (turn, button) in [
            ("0", nil), ("9", nil), ("-9", nil), ("1.5", nil), ("++1", nil), ("", nil), ("１", nil), ("100", nil),
            (nil, "hold"), (nil, nil), ("1", "press"), (" 1", nil), ("0x1", nil),
        ] as [(String?, String?)] {
            guard case .refused(400, _) = crown(bearer, turn: turn, button: button) else {
                Issue.record("turn \(String(describing: turn)), button \(String(describing: button)) was taken")
                continue
            }
        }
    }

    @Test func theCrownsRequestsAreTheKnobsFacts() {
        let now = Timestamp.milliseconds(1234)
        #expect(MirrorCrown.turn(detents: -2).facts(at: now) == [.rotated(detents: -2, at: now)])
        #expect(MirrorCrown.press.facts(at: now) == [.pressed(at: now), .released(at: now)])
        #expect(MirrorCrown.down.facts(at: now) == [.pressed(at: now)])
        #expect(MirrorCrown.up.facts(at: now) == [.released(at: now)])
    }

    @Test func tokensCompareWholly() {
        #expect(MirrorRouter.same("abc", "abc"))
        #expect(!MirrorRouter.same("abc", "abd"))
        #expect(!MirrorRouter.same("abc", "abc\u{0}"))
        #expect(!MirrorRouter.same("", "a"))
        #expect(MirrorRouter.same("", ""))
    }

    /// Property: any text the query may carry is either a turn within the limit or refused, never a crash.
    @Test func detentsAreReadWithinTheLimitOrNotAtAll() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("+-0123456789 x.١")
        for _ in 0..<5000 {
            let length = Int.random(in: 0...4, using: &generator)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "0" })
            if let detents = MirrorRouter.detents(text) {
                #expect((1...MirrorRouter.maximumDetents).contains(abs(detents)), "\(text)")
                #expect(Int(text) == detents, "\(text)")
            }
        }
    }
}
