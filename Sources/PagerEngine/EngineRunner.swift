import CrownVocabulary
import PagerGraphics
import SSD1306

/// The display and journal side of a shell, for `EngineRunner`: the I/O the engine's effects ask
/// for besides reading values (a `PageSampler` reads those).
///
/// A protocol rather than a struct of closures: both shells (the Linux loop behind `run` and the
/// virtual panel behind `render`, the benchmarks and the tests) keep state their I/O changes (the
/// emulator and its records, the bus and its trace), which a generic `inout` conformer reaches
/// directly, where closures would have to escape and share that state by reference.
package protocol EngineShell {
    /// Sends the display's `records`, which the engine gave for `cause`; how long that took (for
    /// `.written(took:)`), or nil when the panel failed (the runner then feeds `.displayFailed`).
    mutating func send(_ records: DisplayBatch, for cause: EngineInput, at now: Timestamp) -> TimeSpan?
    /// A line for the journal.
    mutating func log(_ line: EngineLog)
    /// Stops every command still running (a reload, the end).
    mutating func stopCommands()
    /// Keeps `notifications` for the next run (atomically, where the Linux shell writes state).
    mutating func keepNotifications(_ notifications: [PagerNotification])
    /// Writes the engine's answer to a control request back to the client that asked.
    mutating func reply(_ reply: ControlReply)
    /// Publishes `glass` as the camera's picture.
    mutating func publishGlass(_ glass: Bitmap)
    /// Publishes what the crown did (MQTT's crown event).
    mutating func reportCrown(_ report: CrownReport)
}

extension EngineShell {
    /// A shell without a control socket has no client to answer.
    package mutating func reply(_ reply: ControlReply) {}

    /// A shell without MQTT has no camera topic.
    package mutating func publishGlass(_ glass: Bitmap) {}

    /// A shell without MQTT reports the crown to nobody.
    package mutating func reportCrown(_ report: CrownReport) {}
}

/// The one place that carries out the engine's `Effects`, for every shell: it sends the records,
/// reads the values asked for, and feeds what comes back (`.written`, `.displayFailed`, the
/// values, the glyphs) into the engine through a flat queue, in order, until nothing is left.
/// No recursion: an effect's inputs wait their turn behind the ones before.
package enum EngineRunner {
    /// Feeds `input`, which happened at `now`, and carries out its effects and those of every input
    /// they bring; returns whether display records went out.
    @discardableResult
    package static func feed<Shell: EngineShell, Sampler: PageSampler>(
        _ input: EngineInput, at now: Timestamp, engine: inout DeviceEngine, shell: inout Shell,
        sampler: inout Sampler
    ) -> Bool {
        perform(engine.handle(input, at: now), of: input, at: now, engine: &engine, shell: &shell, sampler: &sampler)
    }

    /// Carries out `effects`, which the engine gave for `cause` at `now`, and those of every input
    /// they bring; returns whether display records went out.
    @discardableResult
    package static func perform<Shell: EngineShell, Sampler: PageSampler>(
        _ effects: Effects, of cause: EngineInput, at now: Timestamp, engine: inout DeviceEngine,
        shell: inout Shell, sampler: inout Sampler
    ) -> Bool {
        var queue: [EngineInput] = []
        var sent = carryOut(effects, of: cause, at: now, shell: &shell, sampler: &sampler, into: &queue)
        var next = 0
        while next < queue.count {
            let input = queue[next]
            next += 1
            let more = engine.handle(input, at: now)
            sent = carryOut(more, of: input, at: now, shell: &shell, sampler: &sampler, into: &queue) || sent
        }
        return sent
    }

    /// Does the I/O of `effects` and queues the inputs it brings: the outcome of the write, the
    /// glyphs, the clock, the local clock, each value read at once (a command's comes when it ends).
    private static func carryOut<Shell: EngineShell, Sampler: PageSampler>(
        _ effects: Effects, of cause: EngineInput, at now: Timestamp, shell: inout Shell, sampler: inout Sampler,
        into queue: inout [EngineInput]
    ) -> Bool {
        for line in effects.log { shell.log(line) }
        if effects.stopsCommands { shell.stopCommands() }
        if let kept = effects.keepsNotifications { shell.keepNotifications(kept) }
        for reply in effects.replies { shell.reply(reply) }
        var sent = false
        if !effects.display.isEmpty {
            if let took = shell.send(effects.display, for: cause, at: now) {
                queue.append(.written(took: took))
                sent = true
            } else {
                queue.append(.displayFailed)
            }
        }
        if let glass = effects.glassPicture { shell.publishGlass(glass) }
        for report in effects.crownReports { shell.reportCrown(report) }
        if !effects.glyphsWanted.isEmpty, let glyphs = sampler.glyphs(for: effects.glyphsWanted) {
            queue.append(.glyphs(glyphs))
        }
        if effects.readsClock { queue.append(.clock(sampler.clock(at: now))) }
        if effects.readsLocalClock { queue.append(.localClock(sampler.localClock(at: now))) }
        for read in effects.reads {
            if let answer = sampler.answer(read, at: now) { queue.append(answer) }
        }
        return sent
    }
}
