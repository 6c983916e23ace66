import CrownVocabulary
import PagerConfig
import PagerControl
import PagerCore
import PagerSettings
import PagerTools
import SSD1306
import TestSupport
import Testing

@testable import PagerEngine

/// A time zone in virtual time, as the Linux shell reads one from the C library: the local time
/// of day at monotonic zero and the offset changes after it.
private struct VirtualZone {
    /// The local time at monotonic zero, in seconds since midnight.
    var secondOfDayAtZero: Int
    /// The offset changes, in order.
    var shifts: [LocalClock.Shift] = []

    /// The clock as the shell hands it over at `instant`.
    func clock(at instant: Timestamp) -> LocalClock {
        var local = Int64(secondOfDayAtZero) * 1_000_000_000 + instant.nanoseconds
        for shift in shifts where shift.at <= instant { local += Int64(shift.seconds) * 1_000_000_000 }
        return LocalClock(
            readAt: instant, localNanoseconds: local, shifts: shifts, knownUntil: instant + LocalClock.lookAhead)
    }
}

/// Answers the engine's reads in virtual time; the local clock from the zone.
private struct ZoneSampler: PageSampler {
    var zone: VirtualZone
    /// How many times the engine read the local clock.
    var localClockReads = 0

    func clock(at instant: Timestamp) -> ClockReading { SampleReadings.clock }
    func answer(_ read: PageRead, at instant: Timestamp) -> EngineInput? { nil }
    mutating func localClock(at instant: Timestamp) -> LocalClock {
        localClockReads += 1
        return zone.clock(at: instant)
    }
}

/// Keeps the commands sent (contrast, display on and off).
private struct CommandShell: EngineShell {
    var commands: [[UInt8]] = []

    mutating func send(_ records: DisplayBatch, for cause: EngineInput, at now: Timestamp) -> TimeSpan? {
        commands += records.filter { $0.kind == .commands }.map { Array($0.bytes) }
        return .milliseconds(1)
    }
    mutating func log(_ line: EngineLog) {}
    mutating func stopCommands() {}
    mutating func keepNotifications(_ notifications: [PagerNotification]) {}
}

/// An engine run in virtual time through the one runner, each wake recorded.
private struct NightRig {
    var engine: DeviceEngine
    var shell = CommandShell()
    var sampler: ZoneSampler
    /// Every instant the engine asked to be woken at and was.
    var wakes: [Timestamp] = []
    var now = Timestamp.zero

    init(_ configuration: Configuration, zone: VirtualZone) {
        engine = DeviceEngine(
            configuration: configuration, style: PageIndicatorStyle(), clock: SampleReadings.clock, start: .zero)
        sampler = ZoneSampler(zone: zone)
        feed(.start)
        feed(.tick)
    }

    mutating func feed(_ input: EngineInput) {
        EngineRunner.feed(input, at: now, engine: &engine, shell: &shell, sampler: &sampler)
    }

    /// Sleeps from deadline to deadline up to `end`, as the shell's loop does; then stands at `end`.
    mutating func run(until end: Timestamp) {
        var rounds = 0
        while let next = engine.nextDeadline, next <= end, rounds < 10_000 {
            now = max(now, next)
            if wakes.last != now { wakes.append(now) }
            feed(.tick)
            rounds += 1
        }
        #expect(rounds < 10_000, "the engine asked for the same instant again and again")
        now = max(now, end)
    }

    /// A detent at `instant`.
    mutating func turn(at instant: Timestamp) {
        run(until: instant)
        feed(.crown(.rotated(detents: 1, at: instant)))
        run(until: instant)
    }

    mutating func control(_ request: PagerCommand, at instant: Timestamp) {
        run(until: instant)
        feed(.control(request, reply: 1))
        run(until: instant)
    }
}

/// The contrast a record of commands sets, Set Contrast Control (81h) first; nil for other commands.
private func contrast(of commands: [UInt8]) -> UInt8? {
    commands.count >= 2 && commands[0] == 0x81 ? commands[1] : nil
}

private func hours(_ value: Double) -> Timestamp { .milliseconds(Int64(value * 3_600_000)) }

/// `[display] night` and `night_mode`, decided by the engine in virtual time: the edges exact, across
/// both daylight-saving changes, with no wake between them; a turn, a press and Home Assistant at night.
@Suite struct NightScheduleTests {
    /// 20:00 at monotonic zero.
    static let evening = 20 * 3600

    static func configuration(
        night: String = "23:00-07:00", mode: NightMode = .dim, pages: [PageSpec]? = nil
    ) -> Configuration {
        var configuration = ConfigPacingTests.configuration(
            pages: pages ?? [PageSpec(title: "Static", kind: .text("nothing here changes"))])
        configuration.display.night = NightSchedule(parsing: night)
        configuration.display.nightMode = mode
        return configuration
    }

    /// Clocks go forward at 02:00 (to 03:00), six hours after 20:00: Europe's last Sunday of March.
    fileprivate static let springForward = VirtualZone(
        secondOfDayAtZero: evening, shifts: [LocalClock.Shift(at: hours(6), seconds: 3600)])
    /// Clocks go back at 03:00 (to 02:00), seven hours after 20:00: Europe's last Sunday of October.
    fileprivate static let fallBack = VirtualZone(
        secondOfDayAtZero: evening, shifts: [LocalClock.Shift(at: hours(7), seconds: -3600)])

    @Test func aStaticPageWakesAtTheNightsEdgesAloneAcrossSpringForward() {
        var rig = NightRig(Self.configuration(), zone: Self.springForward)
        #expect(rig.engine.screen == .bright && rig.engine.nextDeadline == hours(3))
        rig.run(until: hours(30))
        // 23:00 is 3 h on; 07:00 comes 4 h after the 03:00 the change jumped to: 10 h on, not 11.
        // The next evening's 23:00 is 26 h on (the clock an hour ahead); the look-ahead (48 h) asks for nothing sooner.
        #expect(rig.wakes == [hours(3), hours(10), hours(26)])
        #expect(rig.sampler.localClockReads == 4, "read at the start and at each edge")
    }

    @Test func theNightDimsAndEndsWithTheDay() {
        var rig = NightRig(Self.configuration(), zone: Self.springForward)
        rig.run(until: hours(3) - TimeSpan(nanoseconds: 1))
        #expect(rig.engine.screen == .bright && !rig.engine.snapshot.isNight)
        rig.run(until: hours(3))
        // dim_brightness 5%: Set Contrast Control (81h) 12.
        #expect(rig.engine.screen == .dimmed && rig.engine.snapshot.screen == .dimmed && rig.engine.snapshot.isNight)
        #expect(rig.shell.commands.last.flatMap(contrast) == 12)
        rig.run(until: hours(10))
        #expect(rig.engine.screen == .bright && !rig.engine.snapshot.isNight)
        #expect(rig.shell.commands.last.flatMap(contrast) == 204)
    }

    @Test func aNightThatStartsAtATimeSpringForwardSkipsBeginsWithTheJump() {
        // 02:30 does not exist that night: the night begins when the clock jumps past it, at 03:00.
        var rig = NightRig(Self.configuration(night: "02:30-07:00"), zone: Self.springForward)
        rig.run(until: hours(30))
        #expect(rig.wakes.prefix(2) == [hours(6), hours(10)])
        rig = NightRig(Self.configuration(night: "02:30-07:00"), zone: Self.springForward)
        rig.run(until: hours(6))
        #expect(rig.engine.screen == .dimmed)
    }

    @Test func fallBackLengthensTheNightByTheHourItRepeats() {
        var rig = NightRig(Self.configuration(), zone: Self.fallBack)
        rig.run(until: hours(30))
        // 07:00 comes 5 h after the 02:00 the change went back to: 12 h on, a night of 9 h; the
        // next 23:00 is 28 h on (the clock an hour behind).
        #expect(rig.wakes == [hours(3), hours(12), hours(28)])
    }

    @Test func anEndInTheRepeatedHourCountsByTheWallClock() {
        // 02:30 comes twice: the night ends at the first, holds again from 02:00 to the second.
        var rig = NightRig(Self.configuration(night: "23:00-02:30"), zone: Self.fallBack)
        rig.run(until: hours(12))
        #expect(rig.wakes == [hours(3), hours(6.5), hours(7), hours(7.5)])
        #expect(rig.engine.screen == .bright)
    }

    @Test func aNightRunningAtStartDimsTheFirstFrame() {
        let rig = NightRig(Self.configuration(), zone: VirtualZone(secondOfDayAtZero: 1 * 3600))
        #expect(rig.engine.screen == .dimmed)
        #expect(rig.shell.commands.contains { contrast(of: $0) == 12 })
        #expect(rig.engine.nextDeadline == hours(6))
    }

    @Test func aTurnAtNightLightsThePanelUntilTheIdleTimeThenTheNightTakesItAgain() {
        var configuration = Self.configuration()
        configuration.display.dimAfter = .seconds(30)
        var rig = NightRig(configuration, zone: Self.springForward)
        rig.run(until: hours(4))
        #expect(rig.engine.screen == .dimmed)
        rig.turn(at: hours(4))
        #expect(rig.engine.screen == .bright && !rig.engine.snapshot.isNight)
        #expect(rig.engine.presenter.pager.currentPage == 0, "one page: the turn bounces")
        #expect(rig.engine.nextDeadline.map { $0 <= hours(4) + .seconds(30) } == true)
        rig.run(until: hours(4) + .seconds(30))
        #expect(rig.engine.screen == .dimmed && rig.engine.snapshot.isNight)
        rig.run(until: hours(9))
        #expect(rig.wakes.filter { $0 > hours(4) + .seconds(30) } == [], "no wake until the night ends")
    }

    @Test func offModeSwallowsTheDetentThatWakesIt() {
        let pages = (1...3).map { PageSpec(title: "P\($0)", kind: .text("page \($0)")) }
        var rig = NightRig(Self.configuration(mode: .off, pages: pages), zone: Self.springForward)
        rig.run(until: hours(3))
        #expect(rig.engine.screen == .off && rig.shell.commands.last == [0xAE])  // Set Display OFF (AEh)
        rig.turn(at: hours(4))
        #expect(rig.engine.screen == .bright && rig.shell.commands.contains([0xAF]))
        #expect(rig.engine.presenter.pager.currentPage == 0, "the detent that wakes it moves nothing")
        rig.turn(at: hours(4) + .seconds(1))
        #expect(rig.engine.presenter.pager.currentPage == 1)
        // No dim_after or off_after: a minute lit.
        rig.run(until: hours(4) + .seconds(61))
        #expect(rig.engine.screen == .off)
    }

    @Test func timedPagesStandStillAtNightAndGoOnAfter() {
        var configuration = Self.configuration(
            pages: (1...3).map { PageSpec(title: "P\($0)", kind: .text("page \($0)")) })
        configuration.timer.duration = .seconds(5)
        // Starting at 22:59:50: the second page comes at 22:59:55, then the night holds it.
        var rig = NightRig(configuration, zone: VirtualZone(secondOfDayAtZero: 23 * 3600 - 10))
        rig.run(until: .milliseconds(9_000))
        #expect(rig.engine.presenter.pager.currentPage == 1)
        let wakesBefore = rig.wakes.count
        rig.run(until: .milliseconds(10_000) + .seconds(8 * 3600 - 1))
        #expect(rig.engine.presenter.pager.currentPage == 1 && !rig.engine.presenter.navigator.isAutoAdvancing)
        #expect(rig.wakes.count == wakesBefore + 1, "the night's start alone")
        // 07:00, 8 h after 23:00: the page's full time starts again.
        rig.run(until: .milliseconds((10 + 8 * 3600 + 5) * 1000))
        #expect(rig.engine.presenter.pager.currentPage == 2)
    }

    @Test func switchedOffRemotelyAtNightStaysOffAfterIt() {
        var rig = NightRig(Self.configuration(), zone: Self.springForward)
        rig.control(.display(on: false), at: hours(4))
        #expect(rig.engine.screen == .off && rig.engine.snapshot.isSwitchedOff)
        rig.run(until: hours(11))
        #expect(rig.engine.screen == .off, "the morning does not switch on what was switched off")
        rig.control(.display(on: true), at: hours(12))
        #expect(rig.engine.screen == .bright)
    }

    @Test func switchedOnRemotelyAtNightIsLitForTheIdleTimeThenNightAgain() {
        var rig = NightRig(Self.configuration(mode: .off), zone: Self.springForward)
        rig.run(until: hours(4))
        #expect(rig.engine.screen == .off && !rig.engine.snapshot.isSwitchedOff)
        rig.control(.display(on: true), at: hours(4))
        #expect(rig.engine.screen == .bright)
        rig.run(until: hours(4) + .seconds(60))
        #expect(rig.engine.screen == .off && rig.engine.snapshot.isNight && !rig.engine.snapshot.isSwitchedOff)
    }

    @Test func aReloadWithoutTheNightEndsIt() {
        var rig = NightRig(Self.configuration(), zone: Self.springForward)
        rig.run(until: hours(4))
        #expect(rig.engine.screen == .dimmed)
        var fresh = rig.engine.configuration
        fresh.display.night = nil
        rig.feed(.reload(fresh, style: PageIndicatorStyle()))
        rig.run(until: hours(4))
        #expect(rig.engine.screen == .bright && rig.engine.nextDeadline == nil)
    }

    @Test func theEdgesAreExactToTheNanosecond() {
        let clock = Self.springForward.clock(at: .zero)
        let night = NightSchedule(start: 23 * 60, end: 7 * 60)
        #expect(night != nil)
        guard let night else { return }
        #expect(!clock.isNight(night, at: hours(3) - TimeSpan(nanoseconds: 1)))
        #expect(clock.isNight(night, at: hours(3)))
        #expect(clock.nextEdge(of: night, after: .zero) == hours(3))
        #expect(clock.nextEdge(of: night, after: hours(3)) == hours(10))
        #expect(clock.isNight(night, at: hours(10) - TimeSpan(nanoseconds: 1)) && !clock.isNight(night, at: hours(10)))
    }
}

/// `display.night` and `night_mode` as `check` reads them.
@Suite struct NightScheduleSettingTests {
    static func parse(_ display: String) throws(ConfigError) -> Configuration {
        try Configuration(
            parsing: "# a comment\n[display]\n" + display + "\n[[page]]\nkind = \"text\"\ntext = \"a\"\n",
            file: "night.toml", files: NoFiles())
    }

    @Test(arguments: [
        ("23:00-07:00", 1380, 420), ("7:05-8:00", 425, 480), ("00:00-23:59", 0, 1439), ("12:00-00:00", 720, 0),
    ])
    func rangesAreRead(_ text: String, _ start: Int, _ end: Int) throws {
        let night = try #require(try Self.parse("night = \"\(text)\"").display.night)
        #expect(night.start == start && night.end == end)
    }

    @Test func offAndAbsentMeanNoNight() throws {
        #expect(try Self.parse("night = \"off\"").display.night == nil)
        #expect(try Self.parse("").display.night == nil)
        #expect(try Self.parse("night_mode = \"off\"").display.nightMode == .off)
        #expect(try Self.parse("").display.nightMode == .dim)
    }

    @Test(arguments: [
        "", "23:00", "23:00-", "24:00-07:00", "23:60-07:00", "23-07", "23:00 - 07:00", "11pm-7am", "23:00-07:00-08:00",
        "+1:00-07:00", "23:0-07:00",
    ])
    func malformedRangesAreRefusedWithTheirLine(_ text: String) {
        do {
            _ = try Self.parse("brightness = 80\nnight = \"\(text)\"")
            Issue.record("night = \"\(text)\" was accepted")
        } catch {
            #expect(error.file == "night.toml" && error.line == 4 && error.key == "display.night")
            #expect(error.message.contains("HH:MM-HH:MM"))
        }
    }

    @Test func aRangeOfNoLengthIsRefusedAndSaysWhy() {
        do {
            _ = try Self.parse("night = \"07:00-7:00\"")
            Issue.record("a night of no length was accepted")
        } catch {
            #expect(error.line == 3 && error.message.contains("starts and ends at the same time"))
            #expect(error.message.contains("\"off\""))
        }
    }

    /// Property: any text either is refused or reads as a night whose own text reads the same
    /// night back, and the night holds at its start minute and not at its end minute.
    @Test func anyTextIsRefusedOrRoundTrips() {
        var random = SeededGenerator(seed: 34)
        let alphabet = Array("0123456789:- +ab\u{FF1A}\u{0663}")
        for _ in 0..<20_000 {
            let text = String(
                (0..<Int.random(in: 0...13, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "0" })
            guard let night = NightSchedule(parsing: text) else { continue }
            #expect(NightSchedule(parsing: night.description) == night, "\(text)")
            #expect(night.contains(secondOfDay: night.start * 60) && !night.contains(secondOfDay: night.end * 60))
        }
        for start in stride(from: 0, to: 1440, by: 7) {
            for end in stride(from: 0, to: 1440, by: 11) where start != end {
                let night = NightSchedule(start: start, end: end)
                #expect(night.map { NightSchedule(parsing: $0.description) == $0 } == true)
            }
        }
    }

    @Test func aNumberIsRefused() {
        #expect(throws: ConfigError.self) { _ = try Self.parse("night = 2300") }
        #expect(throws: ConfigError.self) { _ = try Self.parse("night_mode = \"dark\"") }
    }
}
