extension Bitmap {
    /// Draws `text` with the top-left of its first line box at `origin`; returns the widest line's advance.
    ///
    /// Every "\n" starts a new line `font.lineHeight` lower at `origin.x`. Other control
    /// characters draw nothing, and a character the font lacks draws a replacement box.
    @discardableResult
    public mutating func drawText(_ text: String, at origin: Point, font: BitmapFont, ink: Ink = .on) -> Int {
        let mode = BlitMode(ink: ink, opaque: false)
        var advance = 0
        // One access to the bytes and the glyphs for the whole string, not one a glyph.
        font.columns.withUnsafeBufferPointer { columns in
            withCanvas { canvas in
                advance = canvas.drawText(text.unicodeScalars, at: origin, font: font, columns: columns, mode: mode)
            }
        }
        return advance
    }

    /// Wraps `text` to the width of `rect` and draws the lines from its top, aligned, clipped to `rect`.
    /// Returns the number of lines that fit entirely.
    @discardableResult
    public mutating func drawText(
        _ text: String, in rect: Rect, font: BitmapFont, alignment: TextAlignment = .leading, ink: Ink = .on
    ) -> Int {
        let savedClip = clip
        clip = clip.intersection(rect)
        defer { clip = savedClip }
        var drawn = 0
        var top = rect.y
        for line in font.wrap(text, width: rect.width) {
            guard top < rect.maxY else { break }
            let slack = rect.width - font.width(of: line)
            let x: Int
            switch alignment {
            case .leading: x = rect.x
            case .center: x = rect.x + slack / 2
            case .trailing: x = rect.x + slack
            }
            drawText(line, at: Point(x: x, y: top), font: font, ink: ink)
            if top + font.lineHeight <= rect.maxY { drawn += 1 }
            top += font.lineHeight
        }
        return drawn
    }

    /// Draws one glyph with its origin on the baseline at `origin`.
    public mutating func drawGlyph(_ glyph: BitmapFont.Glyph, at origin: Point, font: BitmapFont, ink: Ink = .on) {
        font.columns.withUnsafeBufferPointer { columns in
            withCanvas { $0.drawGlyph(glyph, at: origin, columns: columns, mode: BlitMode(ink: ink, opaque: false)) }
        }
    }
}

extension PageCanvas {
    /// Draws one glyph, its page-packed columns blitted in place, transparent.
    func drawGlyph(_ glyph: BitmapFont.Glyph, at origin: Point, columns: UnsafeBufferPointer<UInt8>, mode: BlitMode) {
        let box = glyph.boundingBox
        let end = glyph.bitsOffset + box.width * ((box.height + 7) / 8)
        guard box.width > 0, box.height > 0, end <= columns.count, let base = columns.baseAddress else { return }
        combine(
            PagedSource(base: base + glyph.bitsOffset, width: box.width, height: box.height),
            at: Point(x: origin.x + box.x, y: origin.y + box.y), mode: mode)
    }

    /// `Bitmap.drawText(_:at:font:ink:)` over scalars, with the font's columns at hand.
    func drawText(
        _ scalars: String.UnicodeScalarView, at origin: Point, font: BitmapFont, columns: UnsafeBufferPointer<UInt8>,
        mode: BlitMode
    ) -> Int {
        var pen = Point(x: origin.x, y: origin.y + font.ascent)
        var widest = 0
        for scalar in scalars {
            if scalar == "\n" {
                widest = max(widest, pen.x - origin.x)
                pen = Point(x: origin.x, y: pen.y + font.lineHeight)
                continue
            }
            pen.x += drawScalar(scalar, baseline: pen, font: font, columns: columns, mode: mode)
        }
        return max(widest, pen.x - origin.x)
    }

    /// Draws one scalar at the pen on the baseline and returns how far the pen moves.
    func drawScalar(
        _ scalar: Unicode.Scalar, baseline pen: Point, font: BitmapFont, columns: UnsafeBufferPointer<UInt8>,
        mode: BlitMode
    ) -> Int {
        switch font.mark(for: scalar) {
        case .none:
            return 0
        case .glyph(let glyph):
            drawGlyph(glyph, at: pen, columns: columns, mode: mode)
            return glyph.advance
        case .replacement:
            // A hollow box filling the cell but its last column and row, so neighbours stay apart.
            let top = pen.y - font.ascent
            stroke(Rect(x: pen.x, y: top, width: font.cellWidth - 1, height: font.lineHeight - 1), mode: mode)
            return font.cellWidth
        }
    }
}
