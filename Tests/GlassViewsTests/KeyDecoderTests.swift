import GlassViews
import TestSupport
import Testing

@Suite("Key decoder")
struct KeyDecoderTests {
    /// Every understood input, as the bytes a terminal sends and the commands they mean.
    static let known: [(name: String, bytes: [UInt8], commands: [TerminalCommand])] = [
        ("Down (CSI)", bytes("\u{1B}[B"), [.turn(detents: 1)]),
        ("Up (CSI)", bytes("\u{1B}[A"), [.turn(detents: -1)]),
        ("Down (SS3)", bytes("\u{1B}OB"), [.turn(detents: 1)]),
        ("Up (SS3)", bytes("\u{1B}OA"), [.turn(detents: -1)]),
        ("Ctrl-Down", bytes("\u{1B}[1;5B"), [.turn(detents: 5)]),
        ("Shift-Up", bytes("\u{1B}[1;2A"), [.turn(detents: -5)]),
        ("Down with no modifier", bytes("\u{1B}[1;1B"), [.turn(detents: 1)]),
        ("Down with a count", bytes("\u{1B}[1B"), [.turn(detents: 1)]),
        ("Page Down", bytes("\u{1B}[6~"), [.turn(detents: 5)]),
        ("Page Up", bytes("\u{1B}[5~"), [.turn(detents: -5)]),
        ("Ctrl-Page Up", bytes("\u{1B}[5;5~"), [.turn(detents: -5)]),
        ("j", bytes("j"), [.turn(detents: 1)]),
        ("k", bytes("k"), [.turn(detents: -1)]),
        ("J", bytes("J"), [.turn(detents: 5)]),
        ("K", bytes("K"), [.turn(detents: -5)]),
        ("Alt-j", bytes("\u{1B}j"), [.turn(detents: 1)]),
        ("SGR wheel up", bytes("\u{1B}[<64;10;5M"), [.turn(detents: -1)]),
        ("SGR wheel down", bytes("\u{1B}[<65;130;40M"), [.turn(detents: 1)]),
        ("SGR Shift-wheel down", bytes("\u{1B}[<69;1;1M"), [.turn(detents: 1)]),
        ("SGR Ctrl-wheel up", bytes("\u{1B}[<80;1;1M"), [.turn(detents: -1)]),
        ("SGR left click", bytes("\u{1B}[<0;3;4M"), []),
        ("SGR left release", bytes("\u{1B}[<0;3;4m"), []),
        ("SGR motion", bytes("\u{1B}[<35;3;4M"), []),
        ("SGR horizontal wheel", bytes("\u{1B}[<66;3;4M"), []),
        ("SGR wheel with a missing field", bytes("\u{1B}[<65;3M"), []),
        ("X10 wheel up", [0x1B, 0x5B, 0x4D, 96, 40, 40], [.turn(detents: -1)]),
        ("X10 wheel down", [0x1B, 0x5B, 0x4D, 97, 0xFF, 0x21], [.turn(detents: 1)]),
        ("X10 click", [0x1B, 0x5B, 0x4D, 32, 40, 40], []),
        ("X10 report with quit bytes as coordinates", [0x1B, 0x5B, 0x4D, 97, 0x71, 0x03], [.turn(detents: 1)]),
        ("Enter (CR)", [0x0D], [.press]),
        ("space", bytes(" "), [.press]),
        ("keypad Enter (SS3)", bytes("\u{1B}OM"), [.press]),
        ("CR LF", [0x0D, 0x0A], [.press]),
        ("q", bytes("q"), [.quit]),
        ("Q", bytes("Q"), [.quit]),
        ("Ctrl-C", [0x03], [.quit]),
        ("Ctrl-D", [0x04], [.quit]),
        ("r", bytes("r"), [.redraw]),
        ("R", bytes("R"), [.redraw]),
        ("Ctrl-L", [0x0C], [.redraw]),
        ("l, L", Array("lL".utf8), [.longPress, .longPress]),
        ("Right arrow", bytes("\u{1B}[C"), []),
        ("focus in", bytes("\u{1B}[I"), []),
        ("private mode report", bytes("\u{1B}[?1;2c"), []),
        ("F1 (SS3)", bytes("\u{1B}OP"), []),
        ("Delete", bytes("\u{1B}[3~"), []),
        ("other letters", bytes("xyz"), []),
        ("UTF-8 text", Array("é→".utf8), []),
    ]

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("every known key and mouse report decodes to its commands")
    func knownInputs() {
        for entry in Self.known {
            var decoder = KeyDecoder()
            #expect(decoder.feed(entry.bytes) == entry.commands, "\(entry.name)")
            #expect(!decoder.hasPendingSequence, "\(entry.name) left the decoder inside a sequence")
        }
    }

    @Test("LF alone is a press; CR CR is two presses; CR LF is one")
    func lineEndings() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x0A]) == [.press])
        #expect(decoder.feed([0x0D, 0x0D, 0x0A]) == [.press, .press])
        #expect(decoder.feed([0x0D]) == [.press])
        #expect(decoder.feed([0x0A]) == [])
        #expect(decoder.feed([0x0A]) == [.press])
    }

    @Test("a sequence split across reads is completed by the next read")
    func splitSequence() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.hasPendingSequence)
        #expect(decoder.feed(Self.bytes("[1;")) == [])
        #expect(decoder.feed(Self.bytes("5")) == [])
        #expect(decoder.feed(Self.bytes("Bj")) == [.turn(detents: 5), .turn(detents: 1)])
        #expect(!decoder.hasPendingSequence)
    }

    @Test("flush drops a lone Escape and a cut-off sequence")
    func flush() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.flush() == [])
        #expect(!decoder.hasPendingSequence)
        #expect(decoder.feed(Self.bytes("[B")) == [])  // no longer part of a sequence: '[' and 'B' mean nothing
        #expect(decoder.feed(Self.bytes("\u{1B}[<65;1")) == [])
        #expect(decoder.flush() == [])
        #expect(decoder.feed(Self.bytes("q")) == [.quit])
        #expect(decoder.feed([0x1B, 0x1B]) == [])
        #expect(decoder.feed(Self.bytes("[A")) == [.turn(detents: -1)])
    }

    @Test("a control byte inside a sequence abandons it and still counts")
    func controlAbandonsSequence() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Self.bytes("\u{1B}[1;") + [0x03]) == [.quit])
        #expect(decoder.feed(Self.bytes("\u{1B}[") + [0x0D]) == [.press])
        #expect(decoder.feed(Self.bytes("\u{1B}O") + [0x1B] + Self.bytes("[B")) == [.turn(detents: 1)])
    }

    @Test("an overlong sequence is skipped to its final byte")
    func overlongSequence() {
        var decoder = KeyDecoder()
        let junk = Self.bytes("\u{1B}[") + Array(repeating: UInt8(ascii: "9"), count: 100) + Self.bytes("Bj")
        #expect(decoder.feed(junk) == [.turn(detents: 1)])
        let huge = Self.bytes("\u{1B}[<") + Array(repeating: UInt8(ascii: "9"), count: 30) + Self.bytes(";1;1M")
        #expect(decoder.feed(huge) == [])
    }

    @Test("property: feeding in random pieces decodes like feeding at once")
    func splitProperty() {
        var random = SeededGenerator(seed: 1306)
        // A leading LF would merge with a trailing CR, and a lone ESC before a letter
        // makes Alt+letter, so the mix stays made of whole, independent inputs.
        let pieces = Self.known.filter { $0.bytes.first != 0x0A }
        for _ in 0..<500 {
            var stream: [UInt8] = []
            var expected: [TerminalCommand] = []
            for _ in 0..<Int.random(in: 0...25, using: &random) {
                guard let piece = pieces.randomElement(using: &random) else { continue }
                stream += piece.bytes
                expected += piece.commands
            }
            var whole = KeyDecoder()
            let wholeCommands = whole.feed(stream)
            #expect(wholeCommands == expected)

            var split = KeyDecoder()
            var splitCommands: [TerminalCommand] = []
            var start = 0
            while start < stream.count {
                let end = min(stream.count, start + Int.random(in: 1...7, using: &random))
                splitCommands += split.feed(stream[start..<end])
                start = end
            }
            #expect(splitCommands == wholeCommands)
            #expect(!split.hasPendingSequence)
        }
    }

    @Test("property: garbage never crashes, never quits without a quit byte, and is recovered from")
    func garbageProperty() {
        var random = SeededGenerator(seed: 0x55D1306)
        let quitBytes: Set<UInt8> = [0x03, 0x04, UInt8(ascii: "q"), UInt8(ascii: "Q")]
        // Bytes that drive the state machine, drawn often so garbage reaches every state.
        let interesting = Array("\u{1B}[O<M;0123456789ABm~?".utf8) + [0x0D, 0x0A, 0x7F, 0x9B, 0xFF]
        for iteration in 0..<2_000 {
            let withQuits = iteration % 2 == 0
            var stream: [UInt8] = []
            for _ in 0..<Int.random(in: 0...80, using: &random) {
                var byte: UInt8
                repeat {
                    byte =
                        Bool.random(using: &random)
                        ? (interesting.randomElement(using: &random) ?? 0)
                        : UInt8.random(in: 0...255, using: &random)
                } while !withQuits && quitBytes.contains(byte)
                stream.append(byte)
            }
            var decoder = KeyDecoder()
            var commands: [TerminalCommand] = []
            var start = 0
            while start < stream.count {
                let end = min(stream.count, start + Int.random(in: 1...9, using: &random))
                commands += decoder.feed(stream[start..<end])
                start = end
            }
            #expect(commands.count <= stream.count)
            if !stream.contains(where: quitBytes.contains) {
                #expect(!commands.contains(.quit), "quit from \(stream)")
            }
            _ = decoder.flush()
            #expect(decoder.feed(Self.bytes("q")) == [.quit])
        }
    }
}
