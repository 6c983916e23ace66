import PagerGraphics

/// The colours of an OLED module, for PNG frames.
package struct OLEDPalette: Hashable, Sendable {
    /// The colour of a lit pixel.
    package var lit: PNG.Color
    /// The colour of a dark pixel: an unlit OLED is black.
    package var dark: PNG.Color

    /// Creates a palette.
    package init(lit: PNG.Color, dark: PNG.Color = .black) {
        self.lit = lit
        self.dark = dark
    }

    /// A white module.
    package static let white = OLEDPalette(lit: .white)
    /// A blue module.
    package static let blue = OLEDPalette(lit: .oledBlue)
    /// A yellow module.
    package static let yellow = OLEDPalette(lit: PNG.Color(red: 0xFF, green: 0xD7, blue: 0x3A))

    /// The palettes by the names a command line accepts: `white`, `blue`, `yellow`.
    package static let named: [(name: String, palette: OLEDPalette)] = [
        ("white", .white), ("blue", .blue), ("yellow", .yellow),
    ]

    /// The palette called `name` (case-insensitive ASCII), or lit in the colour `#RRGGBB` on black; nil for anything else.
    package init?(name: String) {
        if let lit = PNG.Color(hex: name) {
            self.init(lit: lit)
            return
        }
        guard let match = Self.named.first(where: { $0.name == Self.lowercased(name) }) else { return nil }
        self = match.palette
    }

    /// The unlit colour called `name`: `black`, or `#RRGGBB`; nil for anything else.
    package static func unlitColor(named name: String) -> PNG.Color? {
        Self.lowercased(name) == "black" ? .black : PNG.Color(hex: name)
    }

    /// What the command line accepts for a palette, for its help and errors.
    package static let choices = named.map { $0.name }.joined(separator: ", ") + " or #RRGGBB"

    private static func lowercased(_ name: String) -> String {
        String(decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}

/// Turns glass frames into file contents; the app decides where they go.
package enum FrameFiles {
    /// The glass as plain PBM text (P1), one pixel row per line, as golden frames are stored.
    package static func pbm(_ glass: Bitmap, comment: String? = nil) -> String {
        PBM.plain(glass, comment: comment)
    }

    /// The glass as PNG bytes, each pixel a `scale` x `scale` square in the palette's colours.
    package static func png(_ glass: Bitmap, scale: Int = 4, palette: OLEDPalette = .white) -> [UInt8] {
        PNG.encode(glass, scale: scale, lit: palette.lit, dark: palette.dark)
    }

    /// A file name for frame number `index` that sorts in order: `frame-000042.pbm`.
    package static func fileName(index: Int, prefix: String = "frame", extension fileExtension: String) -> String {
        let digits = String(max(0, index))
        let padded = String(repeating: "0", count: max(0, 6 - digits.utf8.count)) + digits
        return "\(prefix)-\(padded).\(fileExtension)"
    }
}
