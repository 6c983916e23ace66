import CrownVocabulary
import GlassViews
import PagerConfig
import PagerCore
import PagerEngine
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306

/// The pager of the browser page: a configuration as `check` reads it, the engine on a clock the
/// page moves, an emulated panel, and the crown the page's wheel, keys and mouse turn.
///
/// The same `VirtualShell` and `DeviceEngine` as `render`, fed the same way: frames go through the
/// SSD1306 encoder into the emulator, so `glass` is what the chosen panel would show. Time is
/// the page's to give (`advance(by:)`); nothing here reads a clock.
package struct WebPager {
    /// The configuration as read, before the page's panel and rotation are laid over it.
    package private(set) var configuration: Configuration
    /// The panel and rotation the page chose (nil: the configuration's own).
    package private(set) var panel: SSD1306Panel?
    /// Degrees the picture turns (0 or 180); nil: the configuration's own.
    package private(set) var rotation: DisplayRotation?
    /// The readings the pages show.
    package var sampler: WebPageSampler
    /// The engine and its emulated panel.
    package private(set) var shell: VirtualShell
    /// The pager's clock: the time the page has advanced it to.
    package private(set) var now: Timestamp
    /// Crown facts the page gave since the last advance, at the time they came.
    private var pending: [CrownEvent] = []
    /// Whether the crown's button is down.
    package private(set) var isPressed = false
    /// The files the user gave the page, which the configuration's pictures and fonts are read from.
    package private(set) var files = WebFileStore()
    /// The running configuration's indicator style, its pictures read when it was loaded: a panel
    /// or rotation chosen later keeps them though the page's files were cleared since.
    private var style = PageIndicatorStyle()
    /// GNU Unifont as the page handed it over, no glyph decoded: each new engine's glyphs start
    /// from it. Nil until the page hands it over, after its first frame.
    package private(set) var unifont: UnifontGlyphs<HexBytes>?
    /// Unifont's text while the page hands it over in parts: the bytes so far and their index.
    private var unifontParts: (bytes: [UInt8], index: HexFontIndex)?

    /// The pager of `configuration` on its own panel, started at time zero.
    package init(configuration: Configuration = .builtIn, sampler: WebPageSampler = WebPageSampler()) {
        self.configuration = configuration
        self.sampler = sampler
        now = .zero
        style = (try? configuration.indicatorStyle(files: files)) ?? PageIndicatorStyle()
        shell = Self.started(configuration, style: style, at: .zero, sampler: &self.sampler)
    }

    /// The file name errors give: the page edits one file, as `check crownpager.toml` reads it.
    package static let fileName = "crownpager.toml"

    /// The configuration run: the one read, with the page's panel and rotation over it.
    package var running: Configuration {
        var overrides = RunOverrides()
        overrides.mock = true
        if let panel { overrides.set(Settings.displayPanel, panel) }
        if let rotation { overrides.set(Settings.displayRotation, rotation) }
        return overrides.applied(to: configuration)
    }

    /// What the panel shows.
    package var glass: Bitmap { shell.glass }

    /// Reads `text` as `crownpager check` does and, when it is good, runs it from now on as `run`
    /// takes a reload (SIGHUP): on the same page, unless the panel changed, which starts afresh.
    /// A configuration with mistakes changes nothing: the pager runs on as it was.
    /// Returns `check`'s answer: its summary, or every mistake at its line.
    package mutating func load(_ text: String) -> CheckAnswer {
        let read: Configuration
        do throws(ConfigErrors) {
            read = try Configuration(checking: text, file: Self.fileName, files: files)
        } catch {
            return .mistakes(error)
        }
        let previous = configuration
        configuration = read
        let fresh = running
        let style: PageIndicatorStyle
        do throws(ImageFileError) {
            style = try fresh.indicatorStyle(files: files)
        } catch {
            configuration = previous
            return .mistakes(
                ConfigErrors([ConfigError(file: Self.fileName, line: 0, key: "", message: error.description)]))
        }
        self.style = style
        let old = shell.engine.configuration.display
        if fresh.display.panel == old.panel, fresh.display.connection == old.connection {
            pending.removeAll()
            isPressed = false
            shell.feed(.reload(fresh, style: style), at: now, sampler: &sampler)
            _ = shell.takeRecords()
        } else {
            restart()
        }
        return .good(read.summary)
    }

    /// Keeps `bytes` as the file `name` (its last path component) for the configuration to read;
    /// the page then loads its text again. Throws, keeping nothing, for a file over the caps.
    package mutating func addFile(name: String, bytes: [UInt8]) throws(WebFileError) {
        try files.add(name: name, bytes: bytes)
    }

    /// Forgets every file the user gave; the running pages keep the pictures they read.
    package mutating func removeAllFiles() { files.removeAll() }

    /// Shows the pages on `panel` instead of the configuration's, from the first page.
    package mutating func choose(panel: SSD1306Panel?) {
        self.panel = panel
        restart()
    }

    /// Turns the picture by `rotation` instead of the configuration's, from the first page.
    package mutating func rotate(_ rotation: DisplayRotation?) {
        self.rotation = rotation
        restart()
    }

    /// The crown turned by `detents` (positive: towards later pages), now.
    package mutating func turn(_ detents: Int) {
        guard detents != 0 else { return }
        pending.append(.rotated(detents: detents, at: now))
    }

    /// The crown's button went down (`true`) or came up, now. A second down without an up is ignored.
    package mutating func press(_ down: Bool) {
        guard down != isPressed else { return }
        isPressed = down
        pending.append(down ? .pressed(at: now) : .released(at: now))
    }

    /// Moves the clock on by `span`: the crown's facts first, then a turn whenever the engine asks,
    /// as `render` and `run` turn. Returns whether the glass changed. The shell keeps no records.
    @discardableResult
    package mutating func advance(by span: TimeSpan) -> Bool {
        let end = now + max(span, .zero)
        let before = shell.glass
        var time = now
        var crown = pending
        pending.removeAll()
        while true {
            _ = shell.turn(at: time, crown: crown, sampler: &sampler)
            crown = []
            _ = shell.takeRecords()
            guard let wake = shell.wake(after: time, nextInput: nil), wake <= end else { break }
            time = wake
        }
        now = end
        return shell.glass != before
    }

    /// The frames of `script` on the running configuration with the sample readings, as
    /// `crownpager render --frozen` writes them (the glass after each step and each frame sent);
    /// the pager itself is not moved.
    package func render(_ script: CrownScript) -> [RenderedFrame] {
        let configuration = running
        var sampler = UnicodePageSampler(SamplePageSampler(), fonts: unifont)
        return HeadlessRender(configuration: configuration, style: style).run(script, sampler: &sampler).frames
    }

    /// Starts taking GNU Unifont's .hex text (`/usr/share/unifont/unifont.hex`), `byteCount`
    /// bytes in all, handed over in parts (`addUnifont`); a font half handed over is dropped.
    /// Throws for a size under 0 or over 16 MiB (``WebFileStore/maximumFileBytes``).
    package mutating func beginUnifont(byteCount: Int) throws(WebFileError) {
        unifontParts = nil
        guard byteCount >= 0, byteCount <= WebFileStore.maximumFileBytes else {
            throw WebFileError(
                "GNU Unifont's text is \(byteCount) bytes: it may hold at most \(WebFileStore.maximumFileBytes) bytes here"
            )
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount)
        unifontParts = (bytes, HexFontIndex())
    }

    /// The next part of Unifont's text, indexed as it comes, the device's way (`UnifontFile`).
    /// Throws when no font was begun, or the parts go over 16 MiB (the font is then dropped).
    package mutating func addUnifont(_ part: UnsafeBufferPointer<UInt8>) throws(WebFileError) {
        guard var parts = unifontParts else {
            throw WebFileError("GNU Unifont's text came before the page said how long it is")
        }
        unifontParts = nil  // so the bytes are not shared while they grow
        guard parts.bytes.count + part.count <= WebFileStore.maximumFileBytes else {
            throw WebFileError(
                "GNU Unifont's text is over \(WebFileStore.maximumFileBytes) bytes: it may hold at most that here")
        }
        parts.bytes.append(contentsOf: part)
        parts.index.add(part)
        unifontParts = parts
    }

    /// Ends Unifont's text and uses it (`use(unifont:)`); returns the number of glyphs. Throws,
    /// naming the line, for text that is no Unifont .hex file (it is dropped; a font in use stays).
    @discardableResult
    package mutating func finishUnifont() throws(WebFileError) -> Int {
        guard var parts = unifontParts else {
            throw WebFileError("GNU Unifont's text ended before the page said how long it is")
        }
        unifontParts = nil
        do throws(FontFileError) {
            try parts.index.finish()
        } catch {
            throw WebFileError("unifont.hex \(error): not a GNU Unifont .hex file")
        }
        use(unifont: UnifontGlyphs(index: parts.index, reader: HexBytes(parts.bytes)))
        return parts.index.count
    }

    /// Draws from `unifont` what the fonts lack, from now on: the characters the running
    /// engine asked for before it came are answered at once, and the glass redrawn as `render`
    /// draws it with the font (the engine asks for each character only once). A font in place
    /// of another starts a fresh engine, from the first page: the running one keeps the glyphs
    /// it was given.
    package mutating func use(unifont: UnifontGlyphs<HexBytes>) {
        let replaces = self.unifont != nil
        self.unifont = unifont
        if replaces { return restart() }
        sampler.unifont = unifont.fresh
        let unanswered = sampler.unanswered
        sampler.unanswered = []
        if !unanswered.isEmpty, let glyphs = sampler.glyphs(for: unanswered) {
            shell.feed(.glyphs(glyphs), at: now, sampler: &sampler)
            _ = shell.takeRecords()
        }
    }

    /// A fresh engine for the running configuration at `now`, its first page drawn.
    private mutating func restart() {
        let configuration = running
        pending.removeAll()
        isPressed = false
        // The new engine asks for every character again.
        sampler.unifont = unifont?.fresh
        sampler.unanswered = []
        shell = Self.started(configuration, style: style, at: now, sampler: &sampler)
    }

    /// The shell of `configuration` started at `start` as `render` starts it: the panel initialised,
    /// then a turn that asks for the values.
    private static func started(
        _ configuration: Configuration, style: PageIndicatorStyle, at start: Timestamp, sampler: inout WebPageSampler
    ) -> VirtualShell {
        var shell = VirtualShell(
            engine: DeviceEngine(
                configuration: configuration, style: style, clock: sampler.clock(at: start), start: start),
            panel: configuration.display.panel, address: configuration.display.address)
        shell.feed(.start, at: start, sampler: &sampler)
        _ = shell.takeRecords()
        return shell
    }
}

/// `crownpager check`'s answer to a configuration.
package enum CheckAnswer: Equatable {
    /// The file is good: `check`'s summary, one line each.
    case good([String])
    /// Every mistake, in the order of their lines.
    case mistakes(ConfigErrors)

    /// The lines `check` prints: the summary, or each mistake (and, after a syntax error, that the rest is unchecked).
    package var lines: [String] {
        switch self {
        case .good(let summary): return summary
        case .mistakes(let errors):
            var lines = errors.errors.map { "crownpager: " + $0.description }
            if errors.stoppedReading, let first = errors.errors.first {
                lines.append(
                    "crownpager: \(first.file): the rest of the file is not checked until this syntax error is fixed")
            }
            return lines
        }
    }
}
