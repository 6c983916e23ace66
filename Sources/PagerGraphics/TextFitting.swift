/// Cutting a line of text to a width, with an ellipsis where it is cut.
enum TextFitting {
    /// `text` whole when its widest line fits `width`, else its first line cut so that it and
    /// `ellipsis` fit; just as much of the ellipsis as fits when nothing else does.
    static func fit(
        _ text: String, width: Int, ellipsis: String, measure: (String) -> Int, advance: (Unicode.Scalar) -> Int
    ) -> String {
        if !text.contains("\n"), measure(text) <= width { return text }
        let room = width - measure(ellipsis)
        guard room >= 0 else {
            // Not even the ellipsis fits: as much of it as does (a dot says more than nothing).
            return prefix(ellipsis, width: width, advance: advance)
        }
        let line = String(text.prefix { $0 != "\n" && $0 != "\r\n" })
        var kept = prefix(line, width: room, advance: advance)
        // An ellipsis after a space reads as a separate word: drop trailing spaces.
        while kept.last == " " { kept.removeLast() }
        return kept + ellipsis
    }

    /// The longest prefix of `text`, by whole grapheme clusters, that is at most `width` wide.
    private static func prefix(_ text: String, width: Int, advance: (Unicode.Scalar) -> Int) -> String {
        var used = 0
        var end = text.startIndex
        while end < text.endIndex {
            let next = text.index(after: end)
            var step = 0
            for scalar in text.unicodeScalars[end..<next] { step += advance(scalar) }
            if used + step > width { break }
            used += step
            end = next
        }
        return String(text[..<end])
    }
}

extension BitmapFont {
    /// The ellipsis this font draws: "…" when it has the glyph, else three full stops.
    public var ellipsis: String { glyph(for: "\u{2026}") != nil ? "\u{2026}" : "..." }

    /// `text` as drawn in `width` pixels: whole when it fits, else cut with `ellipsis` at its end
    /// (only the first line of several is kept), so no glyph is drawn partly.
    public func fitting(_ text: String, width: Int) -> String {
        // Closures, not the method `advance(of:)` as a value: that would allocate its context every call.
        TextFitting.fit(
            text, width: width, ellipsis: ellipsis, measure: { self.width(of: $0) }, advance: { self.advance(of: $0) })
    }
}

extension FontChain {
    /// The ellipsis the chain draws: "…" when one of its fonts has it, else three full stops.
    public var ellipsis: String { glyph(for: "\u{2026}") != nil ? "\u{2026}" : "..." }

    /// `text` as drawn in `width` pixels: whole when it fits, else cut with `ellipsis` at its end.
    public func fitting(_ text: String, width: Int) -> String {
        TextFitting.fit(
            text, width: width, ellipsis: ellipsis,
            measure: { self.width(of: $0) }, advance: { self.advance(of: $0) })
    }
}
