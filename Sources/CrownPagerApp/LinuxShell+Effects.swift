import CrownInput
import CrownVocabulary
import GlassViews
import LinuxSystem
import PagerControl
import PagerCore
import PagerEngine
import PagerGraphics
import PagerSettings
import SSD1306

extension LinuxShell {
    /// The Linux side of the `EngineRunner`: the display's interface and the trace, the journal, the commands.
    struct RunShell: EngineShell {
        let run: LinuxShell
        var loop: LinuxShellState
        /// The bus clock the emulator's writes are modelled at.
        let pacingHertz: Int
        /// What the bus said when the last write failed, for the journal's line about it.
        var failure: CrownPagerError?
        /// A trace that could not be written: the run's error, thrown once the effects are done.
        var traceError: CrownPagerError?

        mutating func send(_ records: DisplayBatch, for cause: EngineInput, at now: Timestamp) -> TimeSpan? {
            var took: TimeSpan?
            do throws(CrownPagerError) {
                took = try loop.write(records, modelledAt: pacingHertz)
                failure = nil
            } catch {
                failure = error
            }
            do throws(CrownPagerError) {
                try run.appendTrace(loop.display.drainRecords(), at: now)
            } catch {
                traceError = traceError ?? error
            }
            return took
        }

        mutating func log(_ line: EngineLog) { run.report(line, failure: failure) }

        mutating func stopCommands() { run.commands.stopAll() }

        mutating func keepNotifications(_ notifications: [PagerNotification]) {
            run.notificationStore?.save(notifications)
        }

        mutating func reply(_ reply: ControlReply) {
            // MQTT's commands have no client: LinuxShell+MQTT logs their refusals.
            guard let id = reply.id else { return }
            run.control?.answer(ControlResponse(reply), to: id)
        }

        mutating func publishGlass(_ glass: Bitmap) { run.mqtt?.publishGlass(glass) }

        mutating func reportCrown(_ report: CrownReport) { run.mqtt?.crown(report) }
    }

    /// This machine's values for the `EngineRunner`: samples and files at once, commands started
    /// and answered when they end (`step` collects them).
    struct RunReads: PageSampler {
        let run: LinuxShell

        func clock(at instant: Timestamp) -> ClockReading { run.live.clock(at: instant) }

        func localClock(at instant: Timestamp) -> LocalClock { run.live.localClock(at: instant) }

        func answer(_ read: PageRead, at instant: Timestamp) -> EngineInput? {
            switch read.source {
            case .system(let values): return .sampled(page: read.page, values.map(run.sampler.sample))
            case .file(let path, _): return .fileRead(page: read.page, run.sampler.file(path))
            case .command(let command), .action(let command):
                run.commands.start(command, for: read, at: instant)
                return nil
            }
        }

        func glyphs(for scalars: [Unicode.Scalar]) -> BitmapFont? {
            run.unicodeFonts.glyphs(for: scalars, warn: { OperatorLog.warning("crownpager: warning: \($0)") })
        }
    }
}

extension LinuxShell {
    /// The run's crown in one line: the detents the knob made and the detents the pager took.
    static func describe(_ tally: CrownTally) -> String {
        let woke = tally.detents - tally.detentsApplied
        let wake = woke > 0 ? " (\(woke) woke the screen)" : ""
        return
            "the crown turned \(tally.detents) detents (\(tally.detentsForward) forward, \(tally.detentsBack) back), "
            + "\(tally.detentsApplied) applied\(wake); \(tally.presses) presses"
    }

    /// Words a log line of the engine; `failure` is the error the bus just gave, if the line is about it.
    func report(_ line: EngineLog, failure: CrownPagerError?) {
        let reason = failure.map { " (\($0))" } ?? ""
        switch line {
        case .displayLost(let retryIn):
            OperatorLog.error(
                "crownpager: the display stopped answering\(reason); retrying in \(retryIn.milliseconds) ms")
        case .displayStillLost:
            break  // said once when it was lost; the recovery is said when it comes
        case .displayRecovered(let attempts):
            OperatorLog.info(
                "crownpager: the display answers again after \(attempts) failed attempt(s): initialised afresh, whole frame resent"
            )
        case .reloaded(let pages):
            OperatorLog.info("crownpager: reloaded \(path ?? "the configuration"): \(pages) pages")
        case .reloadNeedsRestart:
            OperatorLog.warning("crownpager: kept the running configuration: \(CrownPagerError.restartNeeded)")
        case .warning(let warning):
            OperatorLog.warning("crownpager: warning: \(warning)")
        case .notificationDropped(let notification):
            let title = notification.title.map { "\"\($0)\": " } ?? ""
            OperatorLog.warning(
                "crownpager: warning: the notification queue is full: dropped the oldest \(notification.priority.rawValue) "
                    + "one unseen, \(title)\"\(notification.message)\"")
        }
    }
}

extension LinuxShell {
    /// Appends the records the panel accepted to the trace, and at `now` (when given) to the recording
    /// and the live mirror.
    func appendTrace(_ records: DisplayBatch, at now: Timestamp? = nil) throws(CrownPagerError) {
        if let now { recorder?.record(records, at: now) }
        liveMirror?.take(records)
        try trace?.append(records)
    }

    /// Closes the trace at the end of the run; a failure to write its end is a warning, not the run's error.
    func closeTrace(_ open: TraceFile) {
        trace = nil
        do throws(CrownPagerError) { try open.close() } catch { OperatorLog.warning("crownpager: warning: \(error)") }
    }
}
