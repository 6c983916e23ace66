import CrownVocabulary
import PagerControl
import PagerCore
import PagerGraphics
import PagerSettings
import SSD1306

/// What happens to the device, as the shell tells the engine: each input comes with its instant
/// (`DeviceEngine.handle(_:at:)`).
package enum EngineInput: Sendable {
    /// Initialise the panel. The next deadline is at once: its tick asks for the first page's
    /// values and draws the first frame as the last of them arrives, or at once when it needs none.
    case start
    /// A fact from the crown: a turn, a press, a release.
    case crown(CrownEvent)
    /// Time passed and every pending input is in: read what is due, draw a frame if one is due.
    case tick
    /// The local time, asked for with `Effects.readsClock`.
    case clock(ClockReading)
    /// The local clock and its offset changes ahead, asked for with `Effects.readsLocalClock`.
    case localClock(LocalClock)
    /// A page's system values, asked for with `PageRead.Source.system`, in the order asked.
    case sampled(page: Int, [SystemSample])
    /// A page's file, asked for with `PageRead.Source.file`.
    case fileRead(page: Int, FileSample)
    /// A page's command ended: its output, and nil or why it failed (`exit status 3`, `timed out`).
    case commandFinished(page: Int, output: String, status: String?)
    /// A page's action, asked for with `PageRead.Source.action`, ended: its output, and nil
    /// (exit status 0) or why not (`exit status 3`, `timed out after 30s: killed`).
    case actionFinished(page: Int, output: String, status: String?)
    /// The display records of the last effects all went out, and writing them took `took`: measured
    /// around the write(2) calls on a real bus, the modelled bus time where the bus is emulated.
    /// The pacer learns the bus's real speed from it.
    case written(took: TimeSpan)
    /// Sending the last effects' display records failed: the panel stopped answering.
    case displayFailed
    /// A new configuration (read, parsed and overridden by the shell) and its indicator style (images loaded).
    case reload(Configuration, style: PageIndicatorStyle)
    /// The shell's answer to `Effects.glyphsWanted`: every fallback glyph it has found so far (not
    /// only the last ones asked for); the pages draw the characters misc-fixed lacks with them.
    case glyphs(BitmapFont)
    /// Send the whole frame again: the glass may not be what the engine thinks (`r` in a terminal).
    case redraw
    /// The run ends: blank the panel and switch it off, unless `persist`.
    case stop(persist: Bool)
    /// A notification to show by its priority (`crownpager notify`).
    case notify(PagerNotification)
    /// A command from the control socket or MQTT (`crownpager show`, `set`, Home Assistant's
    /// controls), answered in `Effects.replies` with `reply` (nil: no client waits, as with MQTT).
    case control(PagerCommand, reply: Int?)
    /// A value for pushed page `page` (from 0) that could not be read (an MQTT payload that is
    /// not text, not a number for a gauge): the page keeps its value, marked with `problem`'s few words.
    case unreadable(page: Int, problem: String)
}

/// What the engine wants done, for the shell to do: bytes for the display, values to read,
/// commands to stop, lines for the journal.
package struct Effects: Hashable, Sendable {
    /// Command and data records for the display, in order, for the shell's display interface
    /// to frame for its bus. Report the outcome with `.written(took:)` or `.displayFailed`.
    /// Their storage is the engine's, reused by the next frame once the shell lets go of it: a
    /// shell that keeps records copies them.
    package var display = DisplayBatch()
    /// Page values to read, and actions to run; sampled values and files are answered at once,
    /// commands and actions when they end.
    package var reads: [PageRead] = []
    /// Read the local time and answer with `.clock`.
    package var readsClock = false
    /// Read the local clock and the time zone's offset changes ahead (the night schedule), and
    /// answer with `.localClock`.
    package var readsLocalClock = false
    /// Stop every command still running (a reload, the end).
    package var stopsCommands = false
    /// Lines for the journal.
    package var log: [EngineLog] = []
    /// Characters of the pages' titles and text that misc-fixed lacks and the glyphs held lack,
    /// each asked for once: answer with `.glyphs` (nothing, when none can be had: they stay boxes).
    package var glyphsWanted: [Unicode.Scalar] = []
    /// The active and critical notifications not dismissed yet, whenever they change: write them
    /// atomically where the next run finds them (`NotificationFile`); nil when nothing changed.
    package var keepsNotifications: [PagerNotification]?
    /// Answers to `.control` requests, for the shell to write back to the clients that asked.
    package var replies: [ControlReply] = []
    /// The glass to publish as the camera's picture (`GlassCamera`): the frame on it, which the
    /// glass shows (the emulator's glass equals the frame asked for), so no shell reads it back.
    package var glassPicture: Bitmap?
    /// What the crown did, for MQTT's crown events (`CrownReport`), in order.
    package var crownReports: [CrownReport] = []

    /// No effects.
    package init() {}

    /// Whether there is nothing to do.
    package var isEmpty: Bool {
        display.isEmpty && reads.isEmpty && !readsClock && !readsLocalClock && !stopsCommands && log.isEmpty
            && glyphsWanted.isEmpty
            && keepsNotifications == nil
            && replies.isEmpty && glassPicture == nil && crownReports.isEmpty
    }
}

/// Something the operator should read in the journal; the shell words it (and adds the error it holds).
package enum EngineLog: Hashable, Sendable {
    /// The display stopped answering; the next attempt comes after `retryIn`.
    case displayLost(retryIn: TimeSpan)
    /// Another attempt failed; the next comes after `retryIn`.
    case displayStillLost(attempts: Int, retryIn: TimeSpan)
    /// The display answers again after `attempts` failed attempts: initialised afresh, whole frame resent.
    case displayRecovered(attempts: Int)
    /// A reload took effect.
    case reloaded(pages: Int)
    /// A reload changed the panel, bus or address: that needs a restart; the running configuration stays.
    case reloadNeedsRestart
    /// A guideline warning about the pages, for their author.
    case warning(PagerWarning)
    /// The notification queue was full: this one, the oldest passive one (else the oldest active
    /// one, else the oldest), went unseen.
    case notificationDropped(PagerNotification)
}
