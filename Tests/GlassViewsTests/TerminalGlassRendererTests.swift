import GlassViews
import PagerGraphics
import Testing

@Suite("Terminal glass renderer")
struct TerminalGlassRendererTests {
    @Test("half-block cells pair rows 2r and 2r+1 of each column")
    func halfBlockPairs() {
        let glass = Bitmap(rows: [
            "#..#",
            ".#.#",
            "##..",
            "#...",
        ])
        #expect(TerminalGlassRenderer.halfBlockLines(glass) == ["▀▄ █", "█▀  "])
    }

    @Test("half-block with an odd height leaves the last lower halves dark")
    func halfBlockOddHeight() {
        let glass = Bitmap(rows: ["#.", ".#", "##"])
        #expect(TerminalGlassRenderer.halfBlockLines(glass) == ["▀▄", "▀▀"])
    }

    @Test("each braille dot follows the Unicode bit order")
    func brailleBitOrder() {
        // (x, y) of the one lit pixel, and the pattern it must give: dots 1-3 down the left,
        // 4-6 down the right, then 7 and 8 along the bottom.
        let table: [(x: Int, y: Int, scalar: UInt32)] = [
            (0, 0, 0x2801), (0, 1, 0x2802), (0, 2, 0x2804), (1, 0, 0x2808),
            (1, 1, 0x2810), (1, 2, 0x2820), (0, 3, 0x2840), (1, 3, 0x2880),
        ]
        for entry in table {
            var glass = Bitmap(width: 2, height: 4)
            glass[entry.x, entry.y] = true
            let expected = Unicode.Scalar(entry.scalar).map { String(Character($0)) }
            #expect(TerminalGlassRenderer.brailleLines(glass) == [expected ?? ""], "pixel (\(entry.x), \(entry.y))")
        }
    }

    @Test("braille covers partial cells and draws dark cells as spaces")
    func brailleShapes() {
        let glass = Bitmap(rows: [
            "##...",
            "##...",
            "##...",
            "##..#",
            "#....",
        ])
        // Cell (0,0) is full, (1,0) empty, (2,0) has only dot 7; (0,1) only dot 1.
        #expect(TerminalGlassRenderer.brailleLines(glass) == ["⣿ ⡀", "⠁  "])
    }

    @Test("a border frames the glass when it fits")
    func border() {
        let glass = Bitmap(rows: ["##", "#."])
        let result = TerminalGlassRenderer().render(glass, columns: 4, rows: 3)
        #expect(result.layout == GlassLayout(mode: .halfBlock, bordered: true, columns: 4, rows: 3))
        #expect(result.lines == ["┌──┐", "│█▀│", "└──┘"])
        let plain = TerminalGlassRenderer(border: false).render(glass, columns: 4, rows: 3)
        #expect(plain.lines == ["█▀"])
    }

    @Test("mode and border follow the terminal size for a 128x64 glass")
    func modeSelection() {
        let table: [(columns: Int, rows: Int, expected: GlassLayout)] = [
            (130, 34, GlassLayout(mode: .halfBlock, bordered: true, columns: 130, rows: 34)),
            (128, 32, GlassLayout(mode: .halfBlock, bordered: false, columns: 128, rows: 32)),
            (129, 40, GlassLayout(mode: .halfBlock, bordered: false, columns: 128, rows: 32)),
            (200, 33, GlassLayout(mode: .halfBlock, bordered: false, columns: 128, rows: 32)),
            (200, 31, GlassLayout(mode: .braille, bordered: true, columns: 66, rows: 18)),
            (127, 60, GlassLayout(mode: .braille, bordered: true, columns: 66, rows: 18)),
            (64, 16, GlassLayout(mode: .braille, bordered: false, columns: 64, rows: 16)),
            (65, 17, GlassLayout(mode: .braille, bordered: false, columns: 64, rows: 16)),
            (63, 40, GlassLayout(mode: .tooSmall, bordered: false, columns: 63, rows: 1)),
            (100, 15, GlassLayout(mode: .tooSmall, bordered: false, columns: 100, rows: 1)),
        ]
        let renderer = TerminalGlassRenderer()
        for entry in table {
            let layout = renderer.layout(glass: Size(width: 128, height: 64), columns: entry.columns, rows: entry.rows)
            #expect(layout == entry.expected, "terminal \(entry.columns)x\(entry.rows)")
        }
        let unframed = TerminalGlassRenderer(border: false).layout(
            glass: Size(width: 128, height: 64), columns: 200, rows: 60)
        #expect(unframed == GlassLayout(mode: .halfBlock, bordered: false, columns: 128, rows: 32))
    }

    @Test("a 128x32 glass needs only 16 rows for half-blocks")
    func shortPanel() {
        let layout = TerminalGlassRenderer(border: false).layout(
            glass: Size(width: 128, height: 32), columns: 128, rows: 16)
        #expect(layout.mode == .halfBlock)
    }

    @Test("the rendered lines have the layout's size in cells")
    func renderedSize() {
        var glass = Bitmap(width: 128, height: 64)
        glass.fillRect(Rect(x: 10, y: 10, width: 50, height: 20), ink: .on)
        for (columns, rows) in [(140, 40), (128, 32), (80, 24), (64, 16)] {
            let result = TerminalGlassRenderer().render(glass, columns: columns, rows: rows)
            #expect(result.lines.count == result.layout.rows)
            for line in result.lines {
                #expect(line.unicodeScalars.count == result.layout.columns)
            }
        }
    }

    @Test("a terminal too small for braille gets one line saying how big it must be")
    func tooSmall() {
        let glass = Bitmap(width: 128, height: 64)
        let result = TerminalGlassRenderer().render(glass, columns: 60, rows: 10)
        #expect(result.layout.mode == .tooSmall)
        #expect(result.lines == ["Terminal 60x10 is too small: need at least 64x16"])
        #expect(TerminalGlassRenderer().render(glass, columns: 20, rows: 3).lines == ["Terminal 20x3 is too"])
        #expect(TerminalGlassRenderer().render(glass, columns: 20, rows: 0).lines == [])
        #expect(TerminalGlassRenderer().render(glass, columns: 0, rows: 5).lines == [""])
    }

    @Test("mode names for the status line")
    func modeNames() {
        #expect(GlassRenderMode.halfBlock.name == "half-block")
        #expect(GlassRenderMode.braille.name == "braille")
        #expect(GlassRenderMode.tooSmall.name == "too small")
    }
}
