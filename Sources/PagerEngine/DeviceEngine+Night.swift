import CrownVocabulary
import PagerCore
import PagerSettings

/// The night schedule's state (`display.night`): the local clock the shell read, whether the
/// night holds, since when, and when it next begins or ends. Pure state, the engine's to change.
struct NightWatch: Hashable, Sendable {
    /// The hours of the night (`display.night`); nil: no night.
    let schedule: NightSchedule?
    /// What the night does to the panel.
    let mode: NightMode
    /// How long a turn, a press or a remote switch lights the panel at night: `display.dim_after`,
    /// else `off_after`, else a minute.
    let wakeSpan: TimeSpan
    /// The local clock and its offset changes ahead; nil until the shell answers.
    var clock: LocalClock?
    /// Whether the night holds now.
    var isNight = false
    /// When the night began (or was first seen, at start or a reload): crown input before it does
    /// not keep the panel lit.
    var since: Timestamp?
    /// When the night next begins or ends, or the clock must be read again; nil without a clock.
    var nextEdge: Timestamp?

    /// The night `display` asks for, not begun; kept here, so a tick does not read the configuration.
    init(_ display: DisplaySection) {
        schedule = display.night
        mode = display.nightMode
        wakeSpan = display.dimAfter ?? display.offAfter ?? .seconds(60)
    }

    /// Whether the night has the panel at `instant`, the last turn or press at `lastActivity`:
    /// the night holds and nobody lit the panel since it began, or not within `wakeSpan`.
    @inline(__always) func holdsPanel(lastActivity: Timestamp, at instant: Timestamp) -> Bool {
        guard isNight, let since else { return false }
        return lastActivity <= since || instant - lastActivity >= wakeSpan
    }

    /// The screen saver's `state` with the night's dimming or darkness laid over it.
    @inline(__always) func screen(over state: ScreenState, lastActivity: Timestamp, at instant: Timestamp)
        -> ScreenState
    {
        guard holdsPanel(lastActivity: lastActivity, at: instant) else { return state }
        switch mode {
        case .off: return .off
        case .dim: return state == .off ? .off : .dimmed
        }
    }
}

/// The night schedule, decided here in the engine's time: between `display.night`'s times the
/// panel dims (or switches off) and timed pages stand still; a turn or press wakes it, and the
/// night takes it again after the idle time `display.dim_after` (else `off_after`, else a minute).
///
/// The engine sleeps until the next edge (`nightDeadline`): a page that does not change wakes
/// it at the night's start and end alone. The shell reads the local clock and the time zone's
/// offset changes ahead (`Effects.readsLocalClock`) at the first tick and at every edge, so the
/// edges follow the zone through daylight-saving changes and a zone changed while running.
///
/// What wins: the display switched off remotely stays off through the night and after it, until
/// switched on or woken by the crown (`RemoteDisplay`); switched on, or woken, at night, it is
/// lit as a turn lights it, and the night takes it again after the idle time. The screen saver
/// still darkens further: at night in `dim` mode a panel idle for `off_after` is off.
extension DeviceEngine {
    /// Whether the night has the panel now: the night holds and nobody lit it since it began, or
    /// not within `NightWatch.wakeSpan`.
    var nightHoldsPanel: Bool { night.holdsPanel(lastActivity: saver.lastActivity, at: now) }

    /// The screen saver's state at `now`, with the night's dimming or darkness laid over it.
    ///
    /// Asked a few times a frame, and inlined (with `wantedScreen` and the night's two calls):
    /// left to the optimiser, the getter was called with a copy of the whole engine, twice a text
    /// frame, 25,669 instructions a frame against 24,628 without the night; inlined, 24,787
    /// (`bench-vs-luma.sh --instructions`'s count, this 2-core x86_64, 2026-11-29).
    @inline(__always) var idleScreen: ScreenState {
        night.screen(over: saver.state(at: now), lastActivity: saver.lastActivity, at: now)
    }

    /// When the night begins or ends next, or the panel lit at night goes back to it (if that
    /// is after `after`, the last frame: one that passed while the shell slept is due now, as
    /// the screen saver's); nil without a night schedule.
    func nightDeadline(after: Timestamp) -> Timestamp? {
        guard night.schedule != nil else { return nil }
        guard let edge = night.nextEdge else { return night.clock == nil ? now : nil }
        guard night.isNight, let since = night.since, saver.lastActivity > since else { return edge }
        let lit = saver.lastActivity + night.wakeSpan
        return lit > after ? min(edge, lit) : edge
    }

    /// At a tick: whether the local clock must be read first (none yet, or an edge came); else
    /// the night's state brought up to `now`, with the timer held or let go.
    mutating func watchNight(into effects: inout Effects) {
        guard let schedule = night.schedule else { return }
        guard let clock = night.clock, let edge = night.nextEdge else {
            effects.readsLocalClock = true
            return
        }
        // At an edge the clock is read again: the zone may have changed while running.
        if now >= edge, clock.readAt < now {
            effects.readsLocalClock = true
            return
        }
        updateNight(schedule, clock: clock)
    }

    /// The shell's local clock: the night's state and next edge from it.
    mutating func receive(_ clock: LocalClock) {
        night.clock = clock
        guard let schedule = night.schedule else { return }
        updateNight(schedule, clock: clock)
    }

    /// The night's state at `now` from `clock`, its next edge, and the timer held while it holds.
    private mutating func updateNight(_ schedule: NightSchedule, clock: LocalClock) {
        let isNight = clock.isNight(schedule, at: now)
        var edge = clock.nextEdge(of: schedule, after: now)
        // A clock whose look-ahead has already passed (a shell's mistake) is read again in a minute, not in a loop.
        if edge <= now { edge = now + .seconds(60) }
        night.nextEdge = edge
        if isNight, !night.isNight {
            night.isNight = true
            night.since = now
            pacer.invalidate()
        } else if !isNight, night.isNight {
            leaveNight()
        }
        presenter.navigator.holdTimer(night.isNight, at: now)
    }

    /// The night is over: timed pages go on, each with its full time.
    private mutating func leaveNight() {
        night.isNight = false
        night.since = nil
        presenter.navigator.holdTimer(false, at: now)
        pacer.invalidate()
    }
}
