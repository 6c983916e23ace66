import CrownVocabulary
import GlassViews
import LinuxSystem
import PagerCore
import PagerEngine
import PagerGraphics
import SSD1306

/// The emulator's glass drawn in the terminal (half blocks, or braille when narrow), with a status line.
///
/// Only the lines that changed are rewritten, inside a synchronized update, so a slide does
/// not flicker over SSH.
struct GlassMirror {
    private var screen = TerminalScreen(synchronizedOutput: true)
    private let renderer = TerminalGlassRenderer()
    private var lastSize = (columns: 0, rows: 0)

    /// Repaints everything next time (`r`, Ctrl-L).
    mutating func invalidate() { screen.invalidate() }

    /// Whether the terminal's size changed since the last picture: the next one repaints.
    mutating func sizeChanged(_ terminal: TerminalSession) -> Bool {
        terminal.windowSize() != lastSize
    }

    /// Draws `glass` and the status line of `engine` at `now`.
    mutating func show(_ glass: Bitmap, engine: DeviceEngine, terminal: TerminalSession, at now: Timestamp) {
        let size = terminal.windowSize()
        if size != lastSize {
            lastSize = size
            screen.invalidate()
        }
        let (lines, layout) = renderer.render(glass, columns: size.columns, rows: max(1, size.rows - 1))
        let status = Self.statusLine(engine, layout: layout, columns: size.columns, at: now)
        let output = screen.lines.isEmpty ? screen.repaint(lines + [status]) : screen.update(to: lines + [status])
        // A terminal that went away ends the run through its input; a lost picture is no error.
        try? terminal.write(output)
    }

    /// `page 2/5 · Clock · none · 128x64 half-block · keys`, cut to the terminal's width.
    static func statusLine(_ engine: DeviceEngine, layout: GlassLayout, columns: Int, at now: Timestamp) -> String {
        let snapshot = engine.snapshot(at: now)
        let title = snapshot.displayedPage < snapshot.pageCount ? snapshot.displayedTitle : "-"
        let display = engine.configuration.display
        let rotation = display.rotation == .normal ? "" : " \(display.rotation.degrees)\u{B0}"
        let text =
            "page \(snapshot.displayedPage + 1)/\(snapshot.pageCount) \u{B7} \(title) \u{B7} \(snapshot.interaction) \u{B7} "
            + "\(display.panel.name)\(rotation) \(layout.mode.name) \u{B7} " + TerminalCommand.keyHelp
        return String(text.unicodeScalars.prefix(max(0, columns - 1)).map(Character.init))
    }
}
