import PagerConfig
import TestSupport
import Testing

/// Mutated configuration files must give a value or an error, never a crash or a hang.
@Suite struct TOMLFuzzTests {
    static let seed = #"""
        # CrownPager
        [display]
        panel = "ssd1306-128x64"
        bus = 1
        address = 0x3c
        brightness = 80
        dim_after = "30s"
        [crown]
        lines = { a = 17, b = 27, button = 22 }
        [[page]]
        kind = "command"
        argv = ["vcgencmd", "measure_temp"]
        refresh = '5s'
        text = """multi
        line \u00e9"""
        ratio = -1.5e3
        flags = [true, false, 1_000, 0b11, 'x', { a.b = 1 }]
        """#

    /// Bytes that matter to the grammar, so mutations reach deep into it.
    static let alphabet: [UInt8] = Array("[]{}=\"'.,#\\\n\r\t 0x_e+-:ub1aZ\u{01}".utf8) + [0xC3, 0xA9, 0xFF]

    @Test func thousandsOfMutatedFilesNeverCrash() {
        var generator = SeededGenerator(seed: 0xC0FFEE)
        let base = Array(Self.seed.utf8)
        var parsed = 0
        var rejected = 0
        for _ in 0..<5000 {
            var bytes = base
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let position = Int.random(in: 0...bytes.count, using: &generator)
                let byte = Self.alphabet.randomElement(using: &generator) ?? 0x20
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: bytes.insert(byte, at: position)
                case 1: if position < bytes.count { bytes.remove(at: position) }
                case 2: if position < bytes.count { bytes[position] = byte }
                default:
                    // Duplicate a slice: repeated headers and keys.
                    let end = min(bytes.count, position + Int.random(in: 1...40, using: &generator))
                    bytes.insert(contentsOf: bytes[position..<end], at: position)
                }
            }
            do {
                _ = try TOMLParser.parse(String(decoding: bytes, as: UTF8.self))
                parsed += 1
            } catch {
                #expect(error.line >= 1 && error.column >= 1)
                #expect(!error.message.isEmpty)
                rejected += 1
            }
        }
        #expect(parsed + rejected == 5000)
        #expect(
            parsed > 100 && rejected > 100,
            "mutations should both pass and fail: \(parsed) parsed, \(rejected) rejected")
    }

    @Test func randomBytesNeverCrash() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<2000 {
            let count = Int.random(in: 0...200, using: &generator)
            let bytes = (0..<count).map { _ in Self.alphabet.randomElement(using: &generator) ?? 0 }
            _ = try? TOMLParser.parse(String(decoding: bytes, as: UTF8.self))
        }
    }
}
