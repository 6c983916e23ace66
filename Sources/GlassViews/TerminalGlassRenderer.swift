import PagerGraphics

/// How the glass is drawn with text, chosen from the glass size and the terminal size.
package enum GlassRenderMode: Hashable, Sendable {
    /// One column and two rows of pixels a character cell, with `▀`, `▄`, `█` and space.
    case halfBlock
    /// Two columns and four rows of pixels a cell, with Unicode braille patterns (U+2800 block).
    case braille
    /// Neither fits: a one-line message says how big the terminal must be.
    case tooSmall

    /// A short name for the status line, e.g. `half-block`.
    package var name: String {
        switch self {
        case .halfBlock: return "half-block"
        case .braille: return "braille"
        case .tooSmall: return "too small"
        }
    }
}

/// Where and how the glass goes on the terminal, in character cells.
package struct GlassLayout: Hashable, Sendable {
    /// The way pixels become characters.
    package var mode: GlassRenderMode
    /// True when a one-cell box border surrounds the glass.
    package var bordered: Bool
    /// The width of the drawing in cells, border included.
    package var columns: Int
    /// The height of the drawing in cells, border included.
    package var rows: Int

    /// Creates a layout.
    package init(mode: GlassRenderMode, bordered: Bool, columns: Int, rows: Int) {
        self.mode = mode
        self.bordered = bordered
        self.columns = columns
        self.rows = rows
    }
}

/// Draws the emulator's glass as lines of text for a terminal.
///
/// Pixels are plain characters without colour escapes, so the picture survives tmux,
/// SSH and terminals without colour; a lit pixel shows in the terminal's foreground colour.
/// Every character it emits is one cell wide, so a line's cell count is its scalar count.
package struct TerminalGlassRenderer: Hashable, Sendable {
    /// Whether to draw a box border around the glass when the terminal has room for it.
    package var border: Bool

    /// Creates a renderer; `border` adds a one-cell frame when it fits.
    package init(border: Bool = true) {
        self.border = border
    }

    /// The cells a glass of `glass` pixels needs in `mode`, without a border (one line for `.tooSmall`).
    package static func cells(for glass: Size, mode: GlassRenderMode) -> (columns: Int, rows: Int) {
        let width = max(0, glass.width)
        let height = max(0, glass.height)
        switch mode {
        case .halfBlock: return (width, (height + 1) / 2)
        case .braille: return ((width + 1) / 2, (height + 3) / 4)
        case .tooSmall: return (0, 1)
        }
    }

    /// The layout for a glass of `glass` pixels in `columns` x `rows` free cells.
    ///
    /// Half-block comes first because its pixels are larger and easier to read; braille
    /// is the compact fallback; the border is the first thing dropped when space is short.
    package func layout(glass: Size, columns: Int, rows: Int) -> GlassLayout {
        for mode in [GlassRenderMode.halfBlock, .braille] {
            let need = Self.cells(for: glass, mode: mode)
            if border, need.columns + 2 <= columns, need.rows + 2 <= rows {
                return GlassLayout(mode: mode, bordered: true, columns: need.columns + 2, rows: need.rows + 2)
            }
            if need.columns <= columns, need.rows <= rows {
                return GlassLayout(mode: mode, bordered: false, columns: need.columns, rows: need.rows)
            }
        }
        return GlassLayout(mode: .tooSmall, bordered: false, columns: max(0, columns), rows: min(1, max(0, rows)))
    }

    /// The glass as lines of text that fit in `columns` x `rows` cells, with the layout used.
    package func render(_ glass: Bitmap, columns: Int, rows: Int) -> (lines: [String], layout: GlassLayout) {
        let layout = layout(glass: glass.size, columns: columns, rows: rows)
        var lines: [String]
        switch layout.mode {
        case .halfBlock:
            lines = Self.halfBlockLines(glass)
        case .braille:
            lines = Self.brailleLines(glass)
        case .tooSmall:
            guard layout.rows > 0 else { return ([], layout) }
            let message = Self.tooSmallMessage(glass: glass.size, columns: columns, rows: rows)
            // The message is ASCII, so a UTF-8 prefix is a prefix of cells.
            return ([String(decoding: message.utf8.prefix(max(0, columns)), as: UTF8.self)], layout)
        }
        if layout.bordered {
            lines = Self.framed(lines, innerWidth: layout.columns - 2)
        }
        return (lines, layout)
    }

    /// The sentence shown when the glass does not fit, naming the smallest terminal that works.
    package static func tooSmallMessage(glass: Size, columns: Int, rows: Int) -> String {
        let need = cells(for: glass, mode: .braille)
        return "Terminal \(columns)x\(rows) is too small: need at least \(need.columns)x\(need.rows)"
    }

    /// Each cell holds rows 2r (upper half) and 2r+1 (lower half) of one column.
    package static func halfBlockLines(_ glass: Bitmap) -> [String] {
        let size = cells(for: glass.size, mode: .halfBlock)
        var lines: [String] = []
        lines.reserveCapacity(size.rows)
        for row in 0..<size.rows {
            var line = String.UnicodeScalarView()
            for x in 0..<glass.width {
                switch (glass[x, 2 * row], glass[x, 2 * row + 1]) {
                case (true, true): line.append("\u{2588}")  // █ full block
                case (true, false): line.append("\u{2580}")  // ▀ upper half block
                case (false, true): line.append("\u{2584}")  // ▄ lower half block
                case (false, false): line.append(" ")
                }
            }
            lines.append(String(line))
        }
        return lines
    }

    /// Each cell holds a 2x4 block; dark cells are spaces, one byte instead of three for U+2800.
    ///
    /// The Unicode braille pattern bit order numbers the dots down the left column, then
    /// the right, with the bottom row added last (dots 7 and 8):
    ///
    ///     dot1 (bit 0)  dot4 (bit 3)
    ///     dot2 (bit 1)  dot5 (bit 4)
    ///     dot3 (bit 2)  dot6 (bit 5)
    ///     dot7 (bit 6)  dot8 (bit 7)
    package static func brailleLines(_ glass: Bitmap) -> [String] {
        let size = cells(for: glass.size, mode: .braille)
        var lines: [String] = []
        lines.reserveCapacity(size.rows)
        for row in 0..<size.rows {
            var line = String.UnicodeScalarView()
            for column in 0..<size.columns {
                let pattern = brailleDots(glass, x: 2 * column, y: 4 * row)
                if pattern != 0, let scalar = Unicode.Scalar(0x2800 + UInt32(pattern)) {
                    line.append(scalar)
                } else {
                    line.append(" ")
                }
            }
            lines.append(String(line))
        }
        return lines
    }

    /// The braille dot bits of the 2x4 block whose top-left pixel is (`x`, `y`).
    static func brailleDots(_ glass: Bitmap, x: Int, y: Int) -> UInt8 {
        var pattern: UInt8 = 0
        for (bit, dot) in brailleDotOffsets.enumerated() where glass[x + dot.dx, y + dot.dy] {
            pattern |= 1 << UInt8(bit)
        }
        return pattern
    }

    /// The pixel offset of dots 1 to 8: bit n of a pattern is dot n+1.
    private static let brailleDotOffsets: [(dx: Int, dy: Int)] = [
        (0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (0, 3), (1, 3),
    ]

    /// Lines inside a box of light box-drawing characters.
    static func framed(_ lines: [String], innerWidth: Int) -> [String] {
        let rule = String(repeating: "\u{2500}", count: innerWidth)  // ─
        var out = ["\u{250C}" + rule + "\u{2510}"]  // ┌ ┐
        for line in lines {
            out.append("\u{2502}" + line + "\u{2502}")  // │ │
        }
        out.append("\u{2514}" + rule + "\u{2518}")  // └ ┘
        return out
    }
}
