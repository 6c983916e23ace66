/// How lines of text sit between the left and right edges of a rectangle.
public enum TextAlignment: Sendable, Hashable {
    /// Flush with the left edge.
    case leading
    /// Centred; an odd leftover pixel goes to the right.
    case center
    /// Flush with the right edge.
    case trailing
}

extension BitmapFont {
    /// What drawing one scalar does: nothing (a control), a glyph, or a replacement box.
    enum Mark {
        case none
        case glyph(Glyph)
        case replacement
    }

    /// How `scalar` is drawn: controls draw nothing, scalars the font lacks draw a replacement box.
    func mark(for scalar: Unicode.Scalar) -> Mark {
        if Self.isControl(scalar) { return .none }
        if let glyph = glyph(for: scalar) { return .glyph(glyph) }
        return .replacement
    }

    /// How far the pen moves for `scalar`: 0 for controls, the cell width for a missing glyph.
    public func advance(of scalar: Unicode.Scalar) -> Int {
        switch mark(for: scalar) {
        case .none: return 0
        case .glyph(let glyph): return glyph.advance
        case .replacement: return cellWidth
        }
    }

    /// The advance of the widest line of `text`, lines separated by "\n".
    public func width(of text: String) -> Int {
        var widest = 0
        var line = 0
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                widest = max(widest, line)
                line = 0
            } else {
                line += advance(of: scalar)
            }
        }
        return max(widest, line)
    }

    /// The height of `lines` lines of text.
    public func height(ofLines lines: Int) -> Int {
        max(0, lines) * lineHeight
    }

    /// `text` broken into lines no wider than `width`.
    ///
    /// Lines break at spaces (a run of spaces collapses to one), a word wider than `width`
    /// is cut where it stops fitting, and every "\n" starts a new line, so blank lines stay.
    /// Each line holds at least one scalar, so a width narrower than a glyph still ends.
    public func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        for paragraph in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = String.UnicodeScalarView()
            var lineWidth = 0
            for word in paragraph.split(separator: " ") {
                let wordWidth = word.reduce(0) { $0 + advance(of: $1) }
                let spaceWidth = advance(of: " ")
                if !line.isEmpty, lineWidth + spaceWidth + wordWidth <= width {
                    line.append(" ")
                    line.append(contentsOf: word)
                    lineWidth += spaceWidth + wordWidth
                    continue
                }
                if !line.isEmpty {
                    lines.append(String(line))
                    line = String.UnicodeScalarView()
                    lineWidth = 0
                }
                // The word starts a line; cut it into pieces that fit.
                for scalar in word {
                    let scalarWidth = advance(of: scalar)
                    if !line.isEmpty, scalarWidth > 0, lineWidth + scalarWidth > width {
                        lines.append(String(line))
                        line = String.UnicodeScalarView()
                        lineWidth = 0
                    }
                    line.append(scalar)
                    lineWidth += scalarWidth
                }
            }
            lines.append(String(line))
        }
        return lines
    }

    /// Scalars that move nothing and draw nothing: C0 and C1 controls and DEL.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
