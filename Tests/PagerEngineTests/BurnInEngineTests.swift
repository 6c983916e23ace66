import CrownVocabulary
import PagerCore
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306
import TestSupport
import Testing

@testable import PagerEngine

/// An engine whose records go to the emulator, woken at each deadline as the shell does.
private struct BurnInRig {
    var engine: DeviceEngine
    var emulator: SSD1306Emulator
    /// Each wake's instant and the bytes its records put on the bus (`framedByteCount`).
    var wakes: [(instant: Timestamp, bytes: Int)] = []

    /// Started at zero, the first frame up and a short panel's rows off the glass filled.
    init(_ configuration: Configuration) {
        engine = DeviceEngine(
            configuration: configuration, style: PageIndicatorStyle(), clock: SampleReadings.clock, start: .zero)
        emulator = SSD1306Emulator(panel: configuration.display.panel)
        handle(.start, at: .zero)
        wake(at: .zero)
        run(until: .milliseconds(1000))
        wakes = []
    }

    /// Feeds `input`; its records go to the emulator. Returns their bytes.
    @discardableResult
    mutating func handle(_ input: EngineInput, at instant: Timestamp) -> Int {
        let effects = engine.handle(input, at: instant)
        emulator.send(effects.display)
        var bytes = effects.display.framedByteCount
        if effects.readsClock { bytes += handle(.clock(SampleReadings.clock), at: instant) }
        return bytes
    }

    /// Ticks at `instant` until nothing more is due then.
    mutating func wake(at instant: Timestamp) {
        var bytes = 0
        repeat { bytes += handle(.tick, at: instant) } while engine.nextDeadline.map { $0 <= instant } == true
        wakes.append((instant, bytes))
    }

    /// Wakes at each deadline up to `end`.
    mutating func run(until end: Timestamp) {
        while let next = engine.nextDeadline, next <= end { wake(at: next) }
    }

    /// The frame with no burn-in care, moved by `shift`: what the glass must show.
    func expectedGlass(_ shift: PixelShift, at instant: Timestamp) -> Bitmap {
        var presenter = engine.presenter
        presenter.pixelShift = .zero
        var frame = presenter.frame(at: instant)
        frame.shift(right: shift.right, down: shift.down)
        return frame
    }
}

/// Burn-in care (`display.pixel_shift`, `display.invert_every`): off by default, the orbit a step
/// a period with one wake each, no step while a slide moves, none while the panel is off (taken
/// when it wakes), lit and dark swapped with one command, and the bytes each step costs.
@Suite struct BurnInEngineTests {
    /// Three static text pages on `panel`, the screen saver off unless given.
    static func configuration(
        panel: SSD1306Panel = .ssd1306_128x64, pixelShift: TimeSpan? = .seconds(180), invertEvery: TimeSpan? = nil,
        offAfter: TimeSpan? = nil
    ) -> Configuration {
        var configuration = IdleDeadlineTests.configuration(
            ["A", "B", "C"].map { PageSpec(title: $0, kind: .text("Page \($0): burn-in care")) }, offAfter: offAfter)
        configuration.display.panel = panel
        configuration.display.pixelShift = pixelShift
        configuration.display.invertEvery = invertEvery
        return configuration
    }

    @Test func offByDefaultAnIdlePagerNeverWakes() {
        #expect(Configuration().display.pixelShift == nil)
        #expect(Configuration().display.invertEvery == nil)
        var rig = BurnInRig(Self.configuration(pixelShift: nil))
        #expect(rig.engine.nextDeadline == nil)
        rig.run(until: .milliseconds(3_600_000))
        #expect(rig.wakes.isEmpty)
        #expect(rig.engine.presenter.pixelShift == .zero)
    }

    @Test(arguments: [SSD1306Panel.ssd1306_128x64, .ssd1306_128x32])
    func theOrbitTakesAStepAPeriodWithOneWakeEachTheGlassShifted(panel: SSD1306Panel) {
        var rig = BurnInRig(Self.configuration(panel: panel))
        #expect(rig.engine.nextDeadline == .milliseconds(180_000))
        for step in 1...(PixelShift.orbit.count + 1) {
            let due = Timestamp.milliseconds(180_000 * Int64(step))
            rig.run(until: due)
            let shift = PixelShift.orbit[step % PixelShift.orbit.count]
            #expect(rig.engine.presenter.pixelShift == shift)
            #expect(rig.emulator.glass == rig.expectedGlass(shift, at: due), "step \(step) on \(panel.name)")
        }
        // One wake a step; the 128x32 panel fills its rows off the glass again right after it.
        rig.run(until: .milliseconds(180_000 * Int64(PixelShift.orbit.count + 1) + 1000))
        let quiet = TimedPagesEngineTests.quietWakes(rig.wakes.map { ($0.instant, ScreenState.bright) }, after: .zero)
        #expect(quiet == (1...(PixelShift.orbit.count + 1)).map { .milliseconds(180_000 * Int64($0)) })
        #expect(rig.engine.nextDeadline == .milliseconds(180_000 * Int64(PixelShift.orbit.count + 2)))
    }

    @Test func theOrbitStaysWithinAPixelAndMovesOneAxisAStep() {
        let orbit = PixelShift.orbit
        #expect(orbit.first == .zero)
        #expect(Set(orbit).count == orbit.count)
        for (index, shift) in orbit.enumerated() {
            let next = orbit[(index + 1) % orbit.count]
            #expect(abs(shift.right) <= 1 && abs(shift.down) <= 1)
            #expect(abs(next.right - shift.right) + abs(next.down - shift.down) == 1)
        }
    }

    /// The bytes each step puts on the bus, by the axis it moves: its frame's, and the writes that
    /// fill a short panel's rows off the glass again in the second after it.
    static func bytesPerStep(_ panel: SSD1306Panel) -> (vertical: [StepBytes], horizontal: [StepBytes]) {
        var rig = BurnInRig(Self.configuration(panel: panel))
        var vertical: [StepBytes] = []
        var horizontal: [StepBytes] = []
        for step in 1...PixelShift.orbit.count {
            let due = Timestamp.milliseconds(180_000 * Int64(step))
            rig.wakes = []
            rig.run(until: due + .milliseconds(1000))
            let frame = rig.wakes.first { $0.instant == due }?.bytes ?? 0
            let bytes = StepBytes(frame: frame, refill: rig.wakes.reduce(0) { $0 + $1.bytes } - frame)
            if PixelShift.orbit[step % PixelShift.orbit.count].down != PixelShift.orbit[step - 1].down {
                vertical.append(bytes)
            } else {
                horizontal.append(bytes)
            }
        }
        return (vertical, horizontal)
    }

    /// What one step of the orbit costs.
    struct StepBytes: Hashable, CustomStringConvertible {
        /// The step's frame.
        var frame: Int
        /// The rows off the glass filled again after it.
        var refill: Int

        var description: String { "\(frame)+\(refill)" }
    }

    @Test(arguments: [SSD1306Panel.ssd1306_128x64, .ssd1306_128x32])
    func aRowStepMovesTheStartLineAloneAColumnStepRewritesTheContent(panel: SSD1306Panel) {
        let bytes = Self.bytesPerStep(panel)
        // The start line (40h-7Fh) alone: a command byte and its control byte. The rows that wrap
        // into view are dark, and a short panel's rows off the glass move with the picture.
        #expect(bytes.vertical == Array(repeating: StepBytes(frame: 2, refill: 0), count: 4))
        // A column step rewrites the columns that hold content, on a short panel the neighbouring
        // pages off the glass as well.
        #expect(bytes.horizontal.count == 4)
        #expect(bytes.horizontal.allSatisfy { $0.frame > 100 && $0.frame < 128 * panel.pageCount + 16 })
        #expect(bytes.horizontal.allSatisfy { (panel.height < 64) == ($0.refill > 0) })
    }

    @Test func noStepWhileASlideMovesTheStepFollowsIt() {
        var rig = BurnInRig(Self.configuration())
        rig.run(until: .milliseconds(179_990))
        rig.handle(.crown(.rotated(detents: 1, at: .milliseconds(179_990))), at: .milliseconds(179_990))
        rig.run(until: .milliseconds(180_050))
        // The slide is under way past the step's instant: the picture keeps its place, and no
        // deadline for the step wakes the engine between the slide's frames.
        #expect(rig.engine.presenter.isAnimating(at: .milliseconds(180_050)))
        #expect(rig.engine.burnInDeadline(at: .milliseconds(180_050)) == nil)
        #expect(rig.engine.presenter.pixelShift == .zero)
        rig.run(until: .milliseconds(182_000))
        #expect(rig.engine.presenter.pixelShift == PixelShift.orbit[1])
        #expect(rig.emulator.glass == rig.expectedGlass(PixelShift.orbit[1], at: .milliseconds(182_000)))
        #expect(rig.engine.presenter.pager.currentPage == 1)
    }

    @Test func nothingWhileThePanelIsOffTheStepComesWithTheWake() {
        var rig = BurnInRig(Self.configuration(offAfter: .seconds(60)))
        rig.run(until: .milliseconds(3_600_000))
        // Off at a minute, then asleep: no wake for the steps a dark panel does not need.
        #expect(rig.wakes.map(\.instant) == [.milliseconds(60_000)])
        #expect(rig.engine.screen == .off)
        #expect(rig.engine.presenter.pixelShift == .zero)
        rig.handle(.crown(.rotated(detents: 1, at: .milliseconds(3_600_000))), at: .milliseconds(3_600_000))
        rig.wake(at: .milliseconds(3_600_000))
        #expect(rig.engine.screen == .bright)
        #expect(rig.engine.presenter.pixelShift == PixelShift.orbit[1])
        #expect(rig.emulator.glass == rig.expectedGlass(PixelShift.orbit[1], at: .milliseconds(3_600_000)))
        #expect(rig.engine.nextDeadline == .milliseconds(3_660_000), "switching off comes first again")
    }

    @Test func invertEverySwapsLitAndDarkWithOneCommand() {
        var rig = BurnInRig(Self.configuration(pixelShift: nil, invertEvery: .seconds(3600)))
        let lit = rig.emulator.glass.litPixelCount
        #expect(rig.engine.nextDeadline == .milliseconds(3_600_000))
        rig.run(until: .milliseconds(3_600_000))
        #expect(rig.emulator.registers.isInverse)
        #expect(rig.emulator.glass.litPixelCount == 128 * 64 - lit)
        // One command record: A7h and its control byte.
        #expect(rig.wakes.map(\.bytes) == [2])
        rig.run(until: .milliseconds(7_200_000))
        #expect(!rig.emulator.registers.isInverse)
        #expect(rig.emulator.glass.litPixelCount == lit)
        #expect(rig.wakes.map(\.instant) == [.milliseconds(3_600_000), .milliseconds(7_200_000)])
    }

    @Test(.tags(.golden), arguments: [SSD1306Panel.ssd1306_128x64, .ssd1306_128x32])
    func aShiftedFrame(panel: SSD1306Panel) {
        var presenter = PanelPresenter(
            pages: ConfigPageGoldenTests.pages.map(\.1), currentPage: 4, panel: panel)
        presenter.pixelShift = PixelShift(right: -1, down: 1)
        expectGolden(presenter.frame(at: .zero), named: "burn-in-shifted-\(panel.name)")
    }
}

@Test func afterEveryFrameOfSlidesFromShiftedPlacesTheGlassEqualsTheFrame() {
    // The pixel shift's rows move the start line as a slide's do: both together, from every
    // place on the orbit, the glass must still equal the frame, and the rows off a short
    // panel's glass must still serve the slides.
    var generator = SeededGenerator(seed: 0xB0_2A1)
    for panel in [SSD1306Panel.ssd1306_128x64, .ssd1306_128x32, .sh1106_128x64, .ssd1306_64x48] {
        let pages = (0..<5).map { index in
            ConfiguredPage(
                title: "P\(index)",
                body: .text(
                    (0..<Int.random(in: 3...40, using: &generator)).map { "w\($0 * index)" }.joined(separator: " ")))
        }
        var session = PanelPresenter(pages: pages, panel: panel)
        var emulator = SSD1306Emulator(panel: panel)
        session.start()
        emulator.send(session.display.interface.take())
        var now = Timestamp.zero
        var frames = 0
        for _ in 0..<16 {
            session.pixelShift = PixelShift.orbit.randomElement(using: &generator) ?? .zero
            if Bool.random(using: &generator) {
                let detents = Bool.random(using: &generator) ? 1 : -1
                session.handle(.rotated(detents: detents, at: now))
            }
            let until = now + .milliseconds(Int64.random(in: 20...400, using: &generator))
            while now < until {
                if session.present(at: now) { frames += 1 }
                emulator.send(session.display.interface.take())
                // Filling the rows off the glass leaves the glass as it is.
                session.fillOffGlass(at: now)
                emulator.send(session.display.interface.take())
                #expect(emulator.glass == session.frame(at: now), "\(panel.name) at \(now)")
                now = now + .milliseconds(Int64.random(in: 4...25, using: &generator))
            }
        }
        #expect(frames > 20, "\(panel.name)")
        #expect(emulator.diagnostics.isEmpty)
    }
}
