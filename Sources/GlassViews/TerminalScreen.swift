/// Remembers what is on the terminal and builds the shortest ANSI output that updates it.
///
/// Lines are placed with absolute cursor moves (`ESC [ row ; col H`, CUP), never with
/// newlines, so the output is correct whether or not the tty translates `\n` (OPOST).
/// Only lines that changed are rewritten; each rewrite ends with erase-to-end-of-line
/// (`ESC [ K`, EL) so a shorter line leaves nothing behind.
package struct TerminalScreen: Hashable, Sendable {
    /// The lines last drawn, top to bottom; empty after `invalidate()`.
    package private(set) var lines: [String] = []
    /// The terminal row (1-based) of the first line.
    package var top: Int
    /// The terminal column (1-based) where every line starts.
    package var left: Int
    /// Wraps each update in synchronized output (DEC mode 2026) so the terminal shows it at once.
    ///
    /// Terminals that do not know the mode ignore it, as they must any unknown private mode.
    package var synchronizedOutput: Bool

    /// A screen whose first line goes to row `top`, column `left` (both 1-based).
    package init(top: Int = 1, left: Int = 1, synchronizedOutput: Bool = false) {
        self.top = max(1, top)
        self.left = max(1, left)
        self.synchronizedOutput = synchronizedOutput
    }

    /// The output that turns the last drawn lines into `newLines`; empty when nothing changed.
    package mutating func update(to newLines: [String]) -> String {
        let body = changes(to: newLines)
        guard !body.isEmpty else { return "" }
        return synchronized(body)
    }

    /// Clears the whole screen and draws `newLines` from scratch, e.g. after a resize.
    package mutating func repaint(_ newLines: [String]) -> String {
        lines = []
        // The clear goes inside the synchronized block so a blank screen never shows.
        return synchronized(Self.clearScreen + changes(to: newLines))
    }

    /// Cursor moves and text for the lines that differ, and remembers `newLines`.
    private mutating func changes(to newLines: [String]) -> String {
        var body = ""
        for index in 0..<max(lines.count, newLines.count) {
            if index < newLines.count {
                // Bytes, not Unicode equivalence: what matters is what the terminal received.
                guard index >= lines.count || !lines[index].utf8.elementsEqual(newLines[index].utf8) else { continue }
                body += Self.moveCursor(row: top + index, column: left) + newLines[index] + Self.eraseToEndOfLine
            } else {
                // The old picture was taller: blank the rows it leaves behind.
                body += Self.moveCursor(row: top + index, column: left) + Self.eraseToEndOfLine
            }
        }
        lines = newLines
        return body
    }

    private func synchronized(_ body: String) -> String {
        synchronizedOutput ? Self.beginSynchronizedUpdate + body + Self.endSynchronizedUpdate : body
    }

    /// Forgets what is on the terminal, so the next `update` rewrites every line.
    package mutating func invalidate() {
        lines = []
    }

    // MARK: Sequences

    /// Control Sequence Introducer: ESC [.
    package static let csi = "\u{1B}["
    /// Moves the cursor to `row`, `column` (1-based): CUP.
    package static func moveCursor(row: Int, column: Int) -> String {
        "\(csi)\(max(1, row));\(max(1, column))H"
    }
    /// Erases from the cursor to the end of the line: EL 0.
    package static let eraseToEndOfLine = "\u{1B}[K"
    /// Erases the whole screen and homes the cursor: ED 2 then CUP.
    package static let clearScreen = "\u{1B}[2J\u{1B}[H"
    /// Resets colours and attributes: SGR 0.
    package static let resetAttributes = "\u{1B}[0m"
    /// Switches to the alternate screen buffer, saving the shell's screen (xterm mode 1049).
    package static let enterAlternateScreen = "\u{1B}[?1049h"
    /// Returns to the normal screen buffer and the shell's screen.
    package static let leaveAlternateScreen = "\u{1B}[?1049l"
    /// Hides the cursor (DECTCEM off).
    package static let hideCursor = "\u{1B}[?25l"
    /// Shows the cursor (DECTCEM on).
    package static let showCursor = "\u{1B}[?25h"
    /// Reports button presses and the wheel (mode 1000) in SGR form (mode 1006), which has no 223-column limit.
    package static let enableMouseReporting = "\u{1B}[?1000h\u{1B}[?1006h"
    /// Stops mouse reporting, in the reverse order of enabling it.
    package static let disableMouseReporting = "\u{1B}[?1006l\u{1B}[?1000l"
    /// Starts a synchronized update: the terminal holds the picture until the end mark.
    package static let beginSynchronizedUpdate = "\u{1B}[?2026h"
    /// Ends a synchronized update.
    package static let endSynchronizedUpdate = "\u{1B}[?2026l"

    /// What to write when the mock starts: alternate screen, no cursor, optional mouse wheel, a clear screen.
    package static func enterSequence(mouse: Bool = true) -> String {
        enterAlternateScreen + hideCursor + (mouse ? enableMouseReporting : "") + clearScreen
    }

    /// What to write when the mock ends, undoing `enterSequence` (safe to write even when mouse reporting was off).
    package static var leaveSequence: String {
        resetAttributes + disableMouseReporting + showCursor + leaveAlternateScreen
    }
}
