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
/// the other fonts lack draw as replacement boxes. What is done with the open file is
/// `UnifontGlyphs`, which the browser page's module shares.
package struct UnicodeFonts: GlyphSource, Sendable {
    private enum State: Sendable {
        case untried
        case loaded(UnifontGlyphs<UnifontFile>)
        case unavailable
    }

    private let path: String
    private var state = State.untried

    /// Fonts that fall back on the Unifont file at `path`.
    package init(unifontPath: String = UnifontFile.defaultPath) {
        path = unifontPath
    }

    /// Runs `body` on the open font, opening it if not tried yet; `warn` hears why it cannot be,
    /// once. Nil when it cannot be opened.
    private mutating func withFont<Result>(
        warn: (String) -> Void, _ body: (inout UnifontGlyphs<UnifontFile>) -> Result
    ) -> Result? {
        if case .untried = state {
            do throws(UnifontError) {
                let file = try UnifontFile(path: path)
                state = .loaded(UnifontGlyphs(index: file.index, reader: file))
            } catch {
                state = .unavailable
                warn(error.description)
            }
        }
        guard case .loaded(var glyphs) = state else { return nil }
        state = .untried  // so the glyphs' storage is not shared while they grow
        let result = body(&glyphs)
        state = .loaded(glyphs)
        return result
    }

    /// The answer to the engine's `Effects.glyphsWanted`: every Unifont glyph in use, once those
    /// of `scalars` the file has are read; nil when none was added (or Unifont cannot be opened).
    package mutating func glyphs(for scalars: [Unicode.Scalar], warn: (String) -> Void) -> BitmapFont? {
        withFont(warn: warn) { $0.glyphs(for: scalars) } ?? nil
    }

    /// The chain for drawing `texts` in `first`, having read the Unifont glyphs they need.
    package mutating func chain(for texts: [String], first: BitmapFont, warn: (String) -> Void) -> FontChain {
        withFont(warn: warn) { $0.chain(for: texts, first: first) }
            ?? FontChain(first, fallbacks: Array(UnifontGlyphs<UnifontFile>.builtIn(first).dropFirst()))
    }
}

extension UnicodePageSampler where Fonts == UnicodeFonts {
    /// `base`, with glyphs from Debian's GNU Unifont, opened on the first request.
    package init(_ base: Base) { self.init(base, fonts: UnicodeFonts()) }
}
