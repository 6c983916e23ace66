import PagerCore
import PagerGraphics
import PagerSettings

/// The glyphs of characters misc-fixed lacks: which to ask the shell for, and the title list's fonts.
extension DeviceEngine {
    /// Queues for the next effects the characters of `pages` that neither misc-fixed nor the
    /// glyphs held have, and that were never asked for.
    mutating func askForGlyphs(in pages: some Sequence<ConfiguredPage>) {
        for page in pages {
            _ = page.textContains { scalar in
                guard BitmapFont.fixed6x10.glyph(for: scalar) == nil, glyphs?.glyph(for: scalar) == nil,
                    glyphsAsked.insert(scalar.value).inserted
                else { return false }
                glyphsPending.append(scalar)
                return false
            }
        }
    }

    /// The title list's fonts: `display.font` (else misc-fixed 6x10), misc-fixed after a
    /// configured font, and the fallback glyphs when a title needs them.
    mutating func updateOverviewFonts() {
        let font = configuration.display.font?.font
        let needsGlyphs =
            glyphs.map { glyphs in
                presenter.pager.pages.contains { page in
                    page.title.unicodeScalars.contains {
                        BitmapFont.fixed6x10.glyph(for: $0) == nil && glyphs.glyph(for: $0) != nil
                    }
                }
            } ?? false
        presenter.renderer.overviewFont = font ?? .fixed6x10
        presenter.renderer.overviewFallbacks =
            (font == nil ? [] : [.fixed6x10]) + (needsGlyphs ? glyphs.map { [$0] } ?? [] : [])
    }
}
