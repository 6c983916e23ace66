import CrownVocabulary
import PagerEngine
import PagerGraphics
import PagerSettings
import SSD1306

/// Reading every kind of input costs time linear in its size: each reader timed on inputs of
/// n, 2n, 4n and 8n units (best of 5 runs each, so a busy machine moves it little), and the
/// ratio of each doubling printed. Linear reads double (ratio near 2); a quadratic one
/// quadruples. `crownpager-bench inputs` exits 1 when the last doubling of any input exceeds
/// `InputScaling.limit`.
enum InputScaling {
    /// The largest ratio of a doubling taken as linear: 2 and noise, well short of a square's 4.
    static let limit = 3.0

    /// One kind of input: a name, the unit it grows by, and how to make and read `n` units of it.
    struct Reader {
        var name: String
        var unit: String
        var base: Int
        var make: (Int) -> [UInt8]
        var read: ([UInt8]) -> Int
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// A configuration checked as `crownpager check` does (every mistake listed): its pages, or 0.
    static func check(_ bytes: [UInt8]) -> Int {
        (try? Configuration(checking: text(bytes), file: "bench.toml", files: NoFiles()))?.pages.count ?? 0
    }

    static var readers: [Reader] {
        [
            Reader(
                name: "configuration, bare [[page]] headers (each a mistake)", unit: "headers", base: 1000,
                make: { n in Array(String(repeating: "[[page]]\n", count: n).utf8) }, read: check),
            Reader(
                name: "configuration, text pages", unit: "pages", base: 500,
                make: { n in
                    Array(
                        (0..<n).map { "[[page]]\ntitle = \"P\($0)\"\nkind = \"text\"\ntext = \"hello \($0)\"\n" }
                            .joined().utf8)
                }, read: check),
            Reader(
                name: "configuration, unknown keys in one table", unit: "keys", base: 1000,
                make: { n in Array(("[display]\n" + (0..<n).map { "key\($0) = \($0)\n" }.joined()).utf8) }, read: check),
            Reader(
                name: "crown script", unit: "steps", base: 2000,
                make: { n in Array(String(repeating: "+1\nwait 100ms\n-2\npress\n", count: n / 4).utf8) },
                read: { bytes in (try? CrownScript(parsing: text(bytes)))?.steps.count ?? -1 }),
            Reader(
                name: "I2C trace", unit: "transfers", base: 8000,
                make: { n in Array(String(repeating: "w3@0x3c 0x00 0xae 0xd5\nw2@0x3c 0x40 0xff\n", count: n / 2).utf8)
                },
                read: { bytes in (try? I2CTrace.parse(text(bytes)))?.count ?? -1 }),
            Reader(
                name: "PBM image (P1 text)", unit: "rows of 512", base: 256,
                make: { n in Array(PBM.plain(Bitmap(width: 512, height: n)).utf8) },
                read: { bytes in (try? PBM.decode(bytes))?.height ?? -1 }),
            Reader(
                name: "PNG image", unit: "rows of 1024", base: 256,
                make: { n in
                    var frame = Bitmap(width: 1024, height: n)
                    frame.fillCircle(center: Point(x: 512, y: n / 2), radius: 120)
                    return PNG.encode(frame, scale: 1, lit: .oledBlue)
                },
                read: { bytes in (try? PNG.decode(bytes))?.litPixelCount ?? -1 }),
            Reader(
                name: "BDF font", unit: "glyphs", base: 500,
                make: { n in
                    var bdf = "STARTFONT 2.1\nFONT bench\nSIZE 8 75 75\nFONTBOUNDINGBOX 6 10 0 -2\n"
                    bdf += "STARTPROPERTIES 2\nFONT_ASCENT 8\nFONT_DESCENT 2\nENDPROPERTIES\nCHARS \(n)\n"
                    for code in 0..<n {
                        bdf += "STARTCHAR c\(code)\nENCODING \(0x4E00 + code)\nDWIDTH 6 0\nBBX 6 10 0 -2\nBITMAP\n"
                        bdf += String(repeating: "FC\n", count: 10) + "ENDCHAR\n"
                    }
                    return Array((bdf + "ENDFONT\n").utf8)
                },
                read: { bytes in (try? BDFFont.decode(bytes, name: "bench"))?.glyphCount ?? -1 }),
            Reader(
                name: "Unifont hex font", unit: "glyphs", base: 16000,
                make: { n in
                    Array(
                        (0..<n).map { hex($0 + 0x4E00) + ":" + String(repeating: "0F", count: 32) + "\n" }.joined().utf8
                    )
                },
                read: { bytes in (try? HexFontIndex(bytes: bytes)) == nil ? -1 : 1 }),
            Reader(
                name: "command output read as a terminal shows it", unit: "lines", base: 4000,
                make: { n in
                    Array(String(repeating: "\u{1B}[1;32mOK\u{1B}[0m web\tsync 10%\rsync 100%\n", count: n).utf8)
                },
                read: { bytes in TerminalText.read(bytes).utf8.count }),
            Reader(
                name: "text wrapped by grapheme cluster", unit: "words", base: 8000,
                make: { n in
                    Array(
                        String(repeating: "word e\u{301}t\u{1F468}\u{200D}\u{1F469} \u{1100}\u{1161} ", count: n / 4)
                            .utf8)
                },
                read: { bytes in BitmapFont.fixed6x10.wrap(text(bytes), width: 122).count }),
        ]
    }

    static func hex(_ value: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The best of `runs` timings of `read` on `bytes`, in seconds.
    static func seconds(_ read: ([UInt8]) -> Int, _ bytes: [UInt8], runs: Int = 5) -> (Double, Int) {
        let clock = ContinuousClock()
        var best = Double.infinity
        var result = 0
        for _ in 0..<runs {
            let elapsed = clock.measure { result = read(bytes) }
            best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        return (best, result)
    }
}

/// Prints, for each input, the time to read n, 2n, 4n and 8n units and each doubling's ratio;
/// returns whether every last doubling stayed within `InputScaling.limit`.
func runInputScaling() -> Bool {
    print("Reading inputs over doubling sizes (best of 5 runs; linear doubles, quadratic quadruples):")
    var linear = true
    for reader in InputScaling.readers {
        var times: [Double] = []
        var line = "  " + pad(reader.name, 52)
        for step in 0..<4 {
            let n = reader.base << step
            let bytes = reader.make(n)
            let (time, result) = InputScaling.seconds(reader.read, bytes)
            if result < 0 { line += " (read failed at \(n) \(reader.unit))" }
            times.append(time)
            line += leftPad("\(n): \(fixed2(time * 1000)) ms", 22)
        }
        var ratios = zip(times.dropFirst(), times).map { $0 / max($1, 1e-9) }
        // A shared machine slows a run now and then: a last doubling above the limit is timed
        // again (best of 9), twice at most, before it counts.
        for _ in 0..<2 where (ratios.last ?? 0) > InputScaling.limit {
            let small = InputScaling.seconds(reader.read, reader.make(reader.base << 2), runs: 9).0
            let large = InputScaling.seconds(reader.read, reader.make(reader.base << 3), runs: 9).0
            ratios[ratios.count - 1] = large / max(small, 1e-9)
        }
        line += "  ratios " + ratios.map(fixed2).joined(separator: " ")
        let last = ratios.last ?? 0
        if last > InputScaling.limit {
            linear = false
            line += "  NOT LINEAR (last doubling \(fixed2(last)) > \(fixed1(InputScaling.limit)))"
        }
        print(line)
    }
    print(linear ? "  every input reads in linear time" : "  some input does not read in linear time")
    return linear
}
