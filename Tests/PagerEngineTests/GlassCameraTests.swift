import CrownVocabulary
import PagerCore
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306
import Testing

@testable import PagerEngine

/// A shell that notes when the runner asked it to publish the glass, and whether a slide was moving then.
private struct CameraShell: EngineShell {
    var pictures: [Timestamp] = []
    var glasses: [Bitmap] = []
    var now = Timestamp.zero

    mutating func send(_ records: DisplayBatch, for cause: EngineInput, at now: Timestamp) -> TimeSpan? {
        .milliseconds(1)
    }
    mutating func log(_ line: EngineLog) {}
    mutating func stopCommands() {}
    mutating func keepNotifications(_ notifications: [PagerNotification]) {}
    mutating func publishGlass(_ glass: Bitmap) {
        pictures.append(now)
        glasses.append(glass)
    }
}

/// `GlassCamera` in virtual time: the glass is pictured once it has settled, no sooner than
/// `camera_interval` after the last picture, and a static glass asks for nothing and sets no deadline.
@Suite struct GlassCameraTests {
    static func configuration(camera: TimeSpan?, broker: String? = "broker") -> Configuration {
        var configuration = DeviceEngineTests.configuration(pages: 3)
        configuration.mqtt.host = broker
        configuration.mqtt.cameraInterval = camera
        return configuration
    }

    /// Runs the engine as the Linux loop does, from 0 to `end`: a detent at each of `detents`, a
    /// tick at each deadline; the shell, and every instant the loop woke.
    fileprivate static func run(_ configuration: Configuration, detents: [Timestamp], until end: Timestamp)
        -> (shell: CameraShell, wakes: [Timestamp], engine: DeviceEngine)
    {
        var engine = DeviceEngine(
            configuration: configuration, style: PageIndicatorStyle(), clock: SampleReadings.clock, start: .zero)
        var shell = CameraShell()
        var sampler = SamplePageSampler()
        var wakes: [Timestamp] = []
        EngineRunner.feed(.start, at: .zero, engine: &engine, shell: &shell, sampler: &sampler)
        var pending = detents
        var now = Timestamp.zero
        while true {
            let next = Timestamp.earliest(engine.nextDeadline, pending.first)
            guard let next, next <= end else { break }
            now = max(now, next)
            shell.now = now
            wakes.append(now)
            if let detent = pending.first, detent <= now {
                pending.removeFirst()
                EngineRunner.feed(
                    .crown(.rotated(detents: 1, at: detent)), at: now, engine: &engine, shell: &shell, sampler: &sampler
                )
            }
            EngineRunner.feed(.tick, at: now, engine: &engine, shell: &shell, sampler: &sampler)
            #expect(wakes.count < 10_000, "the loop spins")
            if wakes.count >= 10_000 { break }
        }
        return (shell, wakes, engine)
    }

    @Test func theFirstGlassIsPicturedAndAStaticOneAsksForNothing() {
        let run = Self.run(Self.configuration(camera: .milliseconds(5000)), detents: [], until: .milliseconds(60_000))
        #expect(run.shell.pictures == [.zero])
        #expect(run.shell.glasses == [run.engine.presenter.lastFrame], "the frame on the glass")
        #expect(run.shell.glasses.first?.litPixelCount ?? 0 > 0)
        #expect(run.engine.nextDeadline == nil, "a static glass sets no deadline")
        #expect(run.wakes.allSatisfy { $0 == .zero }, "woken only at the start: \(run.wakes)")
    }

    @Test func aTurnIsPicturedOnceSettledAndNoSoonerThanTheInterval() {
        let detents: [Timestamp] = [.milliseconds(1000), .milliseconds(20_000)]
        let run = Self.run(
            Self.configuration(camera: .milliseconds(5000)), detents: detents, until: .milliseconds(60_000))
        // The first glass; the turn at 1 s (and its indicator fading) waits for 5 s after it; the
        // turn at 20 s goes once its slide ends, the indicator fading after it 5 s after that.
        #expect(run.shell.pictures.count == 4, "\(run.shell.pictures)")
        #expect(run.shell.pictures.first == .zero)
        #expect(run.shell.pictures.dropFirst().first == .milliseconds(5000))
        let afterTurn = run.shell.pictures.dropFirst(2).first ?? .zero
        #expect(afterTurn > .milliseconds(20_000) && afterTurn < .milliseconds(21_000), "\(afterTurn)")
        #expect(!run.engine.presenter.isAnimating(at: afterTurn), "not a frame on its way")
        let last = run.shell.pictures.last ?? .zero
        // Pictured when settled: no frame went out after the last picture.
        #expect(run.engine.nextDeadline == nil)
        #expect(!run.engine.presenter.isAnimating(at: last))
        for (earlier, later) in zip(run.shell.pictures, run.shell.pictures.dropFirst()) {
            #expect(later - earlier >= .milliseconds(5000))
        }
    }

    @Test func aGlassThatKeepsChangingIsPicturedEveryIntervalTheLastChangeIncluded() {
        // A detent every 700 ms for 20 s: the glass never rests long.
        let detents = stride(from: 1000, through: 21_000, by: 700).map { Timestamp.milliseconds(Int64($0)) }
        let run = Self.run(
            Self.configuration(camera: .milliseconds(5000)), detents: detents, until: .milliseconds(60_000))
        for (earlier, later) in zip(run.shell.pictures, run.shell.pictures.dropFirst()) {
            #expect(later - earlier >= .milliseconds(5000))
        }
        #expect(run.shell.pictures.count >= 4 && run.shell.pictures.count <= 6, "\(run.shell.pictures)")
        #expect((run.shell.pictures.last ?? .zero) > (detents.last ?? .zero), "the final glass pictured")
        #expect(run.engine.nextDeadline == nil)
    }

    @Test func dimmingIsNoChangeToPicture() {
        var configuration = Self.configuration(camera: .milliseconds(5000))
        configuration.display.dimAfter = .milliseconds(10_000)
        let run = Self.run(configuration, detents: [], until: .milliseconds(60_000))
        #expect(run.engine.snapshot.screen == .dimmed)
        #expect(run.shell.pictures == [.zero], "the contrast changed, not a pixel")
        #expect(run.wakes.allSatisfy { $0 == .zero || $0 == .milliseconds(10_000) }, "\(run.wakes)")
    }

    @Test func withoutABrokerOrWithNeverThereIsNoCameraAndNoDeadline() {
        for configuration in [
            Self.configuration(camera: nil), Self.configuration(camera: .milliseconds(5000), broker: nil),
        ] {
            let run = Self.run(configuration, detents: [.milliseconds(1000)], until: .milliseconds(60_000))
            #expect(run.shell.pictures.isEmpty)
            #expect(run.engine.nextDeadline == nil)
            #expect(run.engine.camera.interval == nil)
        }
    }

    @Test func theScheduleAloneSettledOrNot() {
        var camera = GlassCamera(Self.configuration(camera: .milliseconds(2000)))
        #expect(camera.due == nil && camera.pictureTime(settled: true) == nil)
        camera.glassChanged(at: .milliseconds(100))
        camera.glassChanged(at: .milliseconds(300))
        #expect(camera.due == .milliseconds(100), "the first change since the last picture counts")
        let moving = camera.takesPicture(at: .milliseconds(150), settled: false)
        #expect(!moving, "not while a slide moves")
        #expect(camera.pictureTime(settled: false) == .milliseconds(2100), "a glass that never settles still goes")
        let settled = camera.takesPicture(at: .milliseconds(150), settled: true)
        #expect(settled && camera.due == nil)
        camera.glassChanged(at: .milliseconds(500))
        #expect(camera.due == .milliseconds(2150), "an interval after the last picture")
        let early = camera.takesPicture(at: .milliseconds(2000), settled: true)
        let due = camera.takesPicture(at: .milliseconds(2150), settled: true)
        #expect(!early && due)
    }
}
