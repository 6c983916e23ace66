import PagerGraphics
import Testing

@testable import PagerMirror

/// What each browser is sent: the newest glass once, in pieces when its socket takes little, and
/// nothing while the glass stays as it is.
@Suite struct MirrorFeedTests {
    static func glass(lit: Int) -> Bitmap {
        var glass = Bitmap(width: 16, height: 8)
        glass[lit, 3] = true
        return glass
    }

    @Test func aStreamGetsTheRetryThenTheGlassThenNothingUntilItChanges() {
        var feed = MirrorFeed()
        let changed1 = feed.update(Self.glass(lit: 1))
        #expect(changed1)
        let stream = feed.open()
        let read2 = feed.read(stream, capacity: 4096)
        #expect(read2 == Array("retry: 1000\n\n".utf8))
        let first = feed.read(stream, capacity: 4096)
        #expect(first == MirrorFeed.event(Self.glass(lit: 1), sequence: 1))
        let read3 = feed.read(stream, capacity: 4096)
        #expect(read3 == [], "nothing new: the stream sleeps")
        let changed4 = feed.update(Self.glass(lit: 1))
        #expect(!changed4, "the same glass again is no change")
        let read5 = feed.read(stream, capacity: 4096)
        #expect(read5 == [])
        let changed6 = feed.update(Self.glass(lit: 2))
        #expect(changed6)
        let read7 = feed.read(stream, capacity: 4096)
        #expect(read7 == MirrorFeed.event(Self.glass(lit: 2), sequence: 2))
    }

    @Test func aSlowStreamFinishesItsEventThenSkipsToTheNewest() {
        var feed = MirrorFeed()
        let changed8 = feed.update(Self.glass(lit: 1))
        #expect(changed8)
        let stream = feed.open()
        _ = feed.read(stream, capacity: 4096)
        var received: [UInt8] = []
        received += feed.read(stream, capacity: 10) ?? []
        // Three glasses while the client reads slowly: it finishes the one it began, then gets the last.
        let changed9 = feed.update(Self.glass(lit: 2))
        #expect(changed9)
        let changed10 = feed.update(Self.glass(lit: 3))
        #expect(changed10)
        while let piece = feed.read(stream, capacity: 10), !piece.isEmpty { received += piece }
        let expected =
            MirrorFeed.event(Self.glass(lit: 1), sequence: 1) + MirrorFeed.event(Self.glass(lit: 3), sequence: 3)
        #expect(received == expected)
    }

    @Test func aClosedStreamEnds() {
        var feed = MirrorFeed()
        let stream = feed.open()
        #expect(feed.streamCount == 1)
        feed.close(stream)
        #expect(feed.streamCount == 0)
        let read11 = feed.read(stream, capacity: 100)
        #expect(read11 == nil)
    }

    @Test func theEventCarriesTheGlassesBytesInBase64() {
        let event = String(decoding: MirrorFeed.event(Self.glass(lit: 0), sequence: 7), as: UTF8.self)
        #expect(event.hasPrefix("event: glass\nid: 7\ndata: 16 8 "))
        #expect(event.hasSuffix("\n\n"))
        // Column 0 of page 0 has row 3 lit: 0x08, then 15 zeros.
        #expect(event.contains("data: 16 8 " + Base64.encode([0x08] + Array(repeating: 0, count: 15))))
    }

    @Test func base64IsRFC4648s() {
        // RFC 4648, section 10.
        let vectors = [
            "": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
            "foobar": "Zm9vYmFy",
        ]
        for (plain, encoded) in vectors { #expect(Base64.encode(Array(plain.utf8)) == encoded) }
        #expect(Base64.encode([0xFF, 0xFE, 0xFD]) == "//79")
    }

    @Test func thePageCarriesThePalette() {
        let page = MirrorPage.html(lit: "#3c9cff", dark: "#000000", scale: 3)
        #expect(page.contains("const lit = \"#3c9cff\", dark = \"#000000\", scale = 3;"))
        #expect(!page.contains("@"))
    }

    @Test func everyMarkerIsFilledAndAStrayAtSignStays() {
        #expect(MirrorPage.filled("a@X@b@X@ c@ @Y@", ["@X@": "1", "@Y@": "é"]) == "a1b1 c@ é")
        #expect(MirrorPage.filled("@X", ["@X@": "1"]) == "@X")
    }
}
