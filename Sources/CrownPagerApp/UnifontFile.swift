import CrownVocabulary
import LinuxSystem
import PagerCore
import PagerEngine
import PagerGraphics

/// Why GNU Unifont could not be used: what the operator needs to put it right.
package enum UnifontError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No file at the path: the package is not installed.
    case missing(path: String)
    /// The file is there but could not be read.
    case unreadable(FileSystemError)
    /// The file is not a .hex font.
    case malformed(path: String, FontFileError)

    /// A sentence for the journal, naming the package to install.
    package var description: String {
        switch self {
        case .missing(let path):
            return "\(path) is missing, so Hangul and other characters the built-in fonts lack show as boxes; "
                + "install GNU Unifont: sudo apt install unifont"
        case .unreadable(let error):
            return "\(error); Hangul and other characters the built-in fonts lack show as boxes"
        case .malformed(let path, let error):
            return "\(path) \(error): not a Unifont .hex file; reinstall it: sudo apt install --reinstall unifont"
        }
    }
}

/// Debian's GNU Unifont (`/usr/share/unifont/unifont.hex`): indexed once, in one streamed pass,
/// its glyphs read back from the file only when text needs them.
package struct UnifontFile: HexFontReader, Sendable {
    /// Where Debian's `unifont` package puts the font.
    package static let defaultPath = "/usr/share/unifont/unifont.hex"
    /// The file read.
    package let path: String
    /// Where each glyph is in the file.
    package let index: HexFontIndex

    /// Indexes the file at `path`.
    package init(path: String = defaultPath) throws(UnifontError) {
        guard FileSystem.exists(atPath: path) else { throw .missing(path: path) }
        var index = HexFontIndex()
        do throws(FileSystemError) {
            try FileSystem.readChunks(atPath: path) { index.add($0) }
        } catch {
            throw .unreadable(error)
        }
        do throws(FontFileError) {
            try index.finish()
        } catch {
            throw .malformed(path: path, error)
        }
        self.path = path
        self.index = index
    }

    /// Up to `count` bytes of the file from `offset`; nil when the file can no longer be read.
    package func bytes(at offset: Int, count: Int) -> [UInt8]? {
        try? FileSystem.readBytes(atPath: path, offset: offset, count: count)
    }
}

/// The font chain text is drawn in: the page's font, misc-fixed, then Unifont's glyphs in use.
///
/// Unifont is opened on the first call; when it cannot be, `warn` hears why once, and characters
/// the other fonts lack draw as replacement boxes.
package struct UnicodeFonts: Sendable {
    private enum State: Sendable {
        case untried
        case loaded(UnifontFile, HexGlyphCache)
        case unavailable
    }

    private let path: String
    private var state = State.untried

    /// Fonts that fall back on the Unifont file at `path`.
    package init(unifontPath: String = UnifontFile.defaultPath) {
        path = unifontPath
    }

    /// Opens Unifont if not tried yet; `warn` hears why it cannot be, once.
    private mutating func open(warn: (String) -> Void) {
        guard case .untried = state else { return }
        do throws(UnifontError) {
            let file = try UnifontFile(path: path)
            state = .loaded(file, HexGlyphCache(index: file.index))
        } catch {
            state = .unavailable
            warn(error.description)
        }
    }

    /// The answer to the engine's `Effects.glyphsWanted`: every Unifont glyph in use, once those
    /// of `scalars` the file has are read; nil when none was added (or Unifont cannot be opened).
    package mutating func glyphs(for scalars: [Unicode.Scalar], warn: (String) -> Void) -> BitmapFont? {
        open(warn: warn)
        guard case .loaded(let file, var cache) = state else { return nil }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        guard cache.cover(String(text), besides: [.fixed6x10], from: file) else { return nil }
        state = .loaded(file, cache)
        return cache.font
    }

    /// The chain for drawing `texts` in `first`, having read the Unifont glyphs they need.
    package mutating func chain(for texts: [String], first: BitmapFont, warn: (String) -> Void) -> FontChain {
        let builtIn = first == .fixed6x10 ? [first] : [first, .fixed6x10]
        open(warn: warn)
        guard case .loaded(let file, var cache) = state else {
            return FontChain(first, fallbacks: Array(builtIn.dropFirst()))
        }
        var grew = false
        for text in texts where cache.cover(text, besides: builtIn, from: file) { grew = true }
        if grew { state = .loaded(file, cache) }
        return FontChain(first, fallbacks: Array(builtIn.dropFirst()) + [cache.font])
    }
}

/// A headless run's sampler that also answers the engine's glyph requests from GNU Unifont, as
/// `run` does: `render` draws what a panel shows. Unifont's warnings are kept for the caller to print.
package struct UnicodePageSampler<Base: PageSampler>: PageSampler {
    /// The sampler answering the clock and the reads.
    package var base: Base
    /// Unifont, opened on the first request.
    package var fonts: UnicodeFonts
    /// Why Unifont could not be used, at most once.
    package private(set) var warnings: [String] = []

    /// `base`, with glyphs from `fonts`.
    package init(_ base: Base, fonts: UnicodeFonts = UnicodeFonts()) {
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
