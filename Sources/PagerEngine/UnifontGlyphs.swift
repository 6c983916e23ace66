import CrownVocabulary
import PagerCore
import PagerGraphics

/// Where a headless run's sampler finds the glyphs the engine asks for (`Effects.glyphsWanted`):
/// GNU Unifont, from the device's file (`UnicodeFonts` in CrownPagerApp) or from the text the
/// browser page hands its module (`UnifontGlyphs<HexBytes>`).
package protocol GlyphSource {
    /// Every glyph found so far, once those of `scalars` the source has are read; nil when none
    /// was added, so the engine does not redraw for nothing. `warn` hears, once, why the source
    /// cannot be used.
    mutating func glyphs(for scalars: [Unicode.Scalar], warn: (String) -> Void) -> BitmapFont?
}

/// GNU Unifont's glyphs in use for one engine: the file's index, a reader of its bytes, and the
/// glyphs decoded so far (`HexGlyphCache`).
///
/// The one answer to the engine's glyph requests, whatever holds the file: the device reads it
/// with pread (`UnifontFile`), the browser page's module holds its text in memory (`HexBytes`).
/// So `run`, `render` and the page draw a character from the same glyph.
package struct UnifontGlyphs<Reader: HexFontReader>: GlyphSource {
    /// Reads the file's bytes.
    package let reader: Reader
    /// The index and the glyphs decoded so far.
    package private(set) var cache: HexGlyphCache

    /// The glyphs of the file `index` was built from, read through `reader`; none decoded yet.
    package init(index: HexFontIndex, reader: Reader) {
        self.reader = reader
        cache = HexGlyphCache(index: index)
    }

    /// The same file with no glyph decoded: for a new engine, which asks for every character
    /// again and must be answered again.
    package var fresh: UnifontGlyphs { UnifontGlyphs(index: cache.index, reader: reader) }

    /// The answer to `Effects.glyphsWanted`: every glyph in use, once those of `scalars` the file
    /// has and misc-fixed 6x10 lacks are read; nil when none was added.
    package mutating func glyphs(for scalars: [Unicode.Scalar]) -> BitmapFont? {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        guard cache.cover(String(text), besides: [.fixed6x10], from: reader) else { return nil }
        return cache.font
    }

    /// `glyphs(for:)`: a font held in full never needs a warning.
    package mutating func glyphs(for scalars: [Unicode.Scalar], warn: (String) -> Void) -> BitmapFont? {
        glyphs(for: scalars)
    }

    /// The chain for drawing `texts` in `first`: misc-fixed 6x10 after it, then the glyphs in use,
    /// once those the texts need are read.
    package mutating func chain(for texts: [String], first: BitmapFont) -> FontChain {
        let builtIn = Self.builtIn(first)
        for text in texts { cache.cover(text, besides: builtIn, from: reader) }
        return FontChain(first, fallbacks: Array(builtIn.dropFirst()) + [cache.font])
    }

    /// `first` and misc-fixed 6x10 after it, unless it is 6x10: the fonts tried before Unifont.
    package static func builtIn(_ first: BitmapFont) -> [BitmapFont] {
        first == .fixed6x10 ? [first] : [first, .fixed6x10]
    }
}

extension UnifontGlyphs: Sendable where Reader: Sendable {}

/// No source: every character the fonts lack draws as a box.
extension Optional: GlyphSource where Wrapped: GlyphSource {
    package mutating func glyphs(for scalars: [Unicode.Scalar], warn: (String) -> Void) -> BitmapFont? {
        guard case .some(var source) = self else { return nil }
        self = nil  // so the source's storage is not shared while it grows
        let font = source.glyphs(for: scalars, warn: warn)
        self = source
        return font
    }
}

/// A headless run's sampler that also answers the engine's glyph requests from GNU Unifont, as
/// `run` does: `render` and the browser page draw what a panel shows. Why the font could not be
/// used is kept for the caller to print.
package struct UnicodePageSampler<Base: PageSampler, Fonts: GlyphSource>: PageSampler {
    /// The sampler answering the clock and the reads.
    package var base: Base
    /// Unifont, however it is held.
    package var fonts: Fonts
    /// Why Unifont could not be used, at most once.
    package private(set) var warnings: [String] = []

    /// `base`, with glyphs from `fonts`.
    package init(_ base: Base, fonts: Fonts) {
        self.base = base
        self.fonts = fonts
    }

    package mutating func clock(at instant: Timestamp) -> ClockReading { base.clock(at: instant) }

    package mutating func localClock(at instant: Timestamp) -> LocalClock { base.localClock(at: instant) }

    package mutating func answer(_ read: PageRead, at instant: Timestamp) -> EngineInput? {
        base.answer(read, at: instant)
    }

    package mutating func glyphs(for scalars: [Unicode.Scalar]) -> BitmapFont? {
        fonts.glyphs(for: scalars) { warnings.append($0) }
    }
}
