import CrownVocabulary
import PagerCore
import PagerEngine
import PagerGraphics
import SSD1306

/// The production path's figures: the engine `run` drives (`DeviceEngine`), fed as the run shell
/// feeds it (every pending detent first, then a tick) on a virtual clock, its transfers written
/// into the emulator. The bus is modelled at the configuration's clock (400 kHz): a frame's
/// transfers take their bus time, and the engine sends no frame before the last one is through.
///
/// - latency: detent to the first frame on the bus that shows it (its first byte, and its last
///   byte, when the glass has it), counting only detents that moved a page;
/// - render + encode: wall time per tick that drew, on this machine;
/// - bus bytes per workload, the largest frame, and the bytes as a share of luma.oled's, which
///   sends every frame whole (00h 21h 0 127 22h 0 7, then 40h and 1024 bytes: 1032 a frame).
func runEngineBenchmarks() {
    print("engine: the DeviceEngine run drives, virtual clock, 400 kHz bus model, 128x64 emulator")
    print("  fonts decoded on first use, once a process (not in the ticks below): " + fontDecoding())
    print(
        "workload                         detents  moved  frames    bytes  largest  of luma  first byte mean/p99   glass mean/p99   tick (render+encode)"
    )
    let spin = (0..<90).map { Timestamp.milliseconds(100) + TimeSpan(nanoseconds: Int64($0) * 33_333_333) }
    let single = (0..<10).map { Timestamp.milliseconds(100 + Int64($0) * 1000) }
    for (name, detents, acceleration) in [
        ("steady spin, 30 detents/s", spin, true), ("steady spin, no acceleration", spin, false),
        ("single detents, 1 s apart", single, true),
    ] {
        print(measure(name, detents: detents, acceleration: acceleration).line)
    }
}

/// Decodes the built-in fonts (their first use) and says how long each took.
func fontDecoding() -> String {
    let clock = ContinuousClock()
    var parts: [String] = []
    for (name, font) in [("5x8", { BitmapFont.fixed5x8 }), ("6x10", { .fixed6x10 }), ("10x20", { .fixed10x20 })] {
        var glyphs = 0
        let elapsed = clock.measure { glyphs = font().glyphCount }
        let microseconds = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
        parts.append("\(name) \(glyphs) glyphs \(fixed2(microseconds / 1000)) ms")
    }
    return parts.joined(separator: ", ")
}

/// What one workload measured.
struct EngineFigures {
    var name: String
    var detents = 0
    var moved = 0
    var frames = 0
    var bytes = 0
    var largestFrame = 0
    var fullFrameBytes = 0
    var firstByte: [Int64] = []
    var glass: [Int64] = []
    var renderNanoseconds: [Int64] = []

    var line: String {
        func stats(_ values: [Int64]) -> String {
            guard !values.isEmpty else { return "-" }
            let sorted = values.sorted()
            let mean = Double(values.reduce(0, +)) / Double(values.count) / 1e6
            let p99 = Double(sorted[min(sorted.count - 1, (sorted.count * 99) / 100)]) / 1e6
            return fixed2(mean) + "/" + fixed2(p99) + " ms"
        }
        let render =
            renderNanoseconds.isEmpty
            ? "-" : fixed2(Double(renderNanoseconds.reduce(0, +)) / Double(renderNanoseconds.count) / 1000) + " us"
        return name.padding(32) + String(detents).leftPadding(8) + String(moved).leftPadding(7)
            + String(frames).leftPadding(8) + String(bytes).leftPadding(9) + String(largestFrame).leftPadding(9)
            + (fixed1(Double(bytes) * 100 / Double(max(1, frames * fullFrameBytes))) + " %").leftPadding(9)
            + stats(firstByte).leftPadding(22)
            + stats(glass).leftPadding(17) + render.leftPadding(26)
    }
}

/// 400 text pages (a spin never reaches the end), the built-in display and crown, `detents` turned at their instants.
func measure(_ name: String, detents: [Timestamp], acceleration: Bool) -> EngineFigures {
    var configuration = Configuration.builtIn
    configuration.display.bus = nil
    configuration.crown.acceleration = acceleration
    configuration.pages = (1...400).map {
        // Short enough to fit: a taller page would scroll its content before paging.
        PageSpec(title: "Page \($0)", kind: .text(String(repeating: "\($0) ", count: 12)))
    }
    var sampler = SamplePageSampler()
    var shell = VirtualShell.started(configuration, sampler: &sampler)
    var figures = EngineFigures(name: name)
    figures.detents = detents.count
    figures.fullFrameBytes = fullFrameLoad(configuration.display.panel).bytes
    let clock = ContinuousClock()
    var waiting: [Timestamp] = []  // detents that moved a page and no frame has shown yet
    var now = Timestamp.zero
    var next = 0
    let end = (detents.last ?? .zero) + .milliseconds(2000)
    var sentBefore = 0
    while now <= end {
        var crown: [CrownEvent] = []
        while next < detents.count, detents[next] <= now {
            crown.append(.rotated(detents: 1, at: detents[next]))
            next += 1
        }
        // The shell's turn, detent by detent so each one's effect on the page is seen.
        var moved: [Timestamp] = []
        for event in crown {
            let before = shell.engine.session.pager.currentPage
            shell.feed(.crown(event), at: now, sampler: &sampler)
            if shell.engine.session.pager.currentPage != before { moved.append(event.timestamp) }
        }
        // The tick alone is timed: the engine renders and encodes; the emulator's share is the panel's.
        let started = clock.now
        let effects = shell.engine.handle(.tick, at: now)
        let elapsed = started.duration(to: clock.now)
        let sent = shell.perform(effects, at: now, sampler: &sampler)
        waiting += moved
        figures.moved += moved.count
        if sent {
            figures.frames += 1
            figures.renderNanoseconds.append(
                elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
            let frameBytes = shell.sentFrames[sentBefore...].reduce(0) { $0 + $1.bytes }
            figures.bytes += frameBytes
            // The first frame after the start is the whole glass, before any detent: not the turns' cost.
            if next > 0 { figures.largestFrame = max(figures.largestFrame, frameBytes) }
            let busTime = shell.engine.pacer.busFreeAt - now
            for detent in waiting {
                figures.firstByte.append((now - detent).nanoseconds)
                figures.glass.append((now + busTime - detent).nanoseconds)
            }
            waiting = []
        }
        sentBefore = shell.sentFrames.count
        guard let wake = shell.wake(after: now, nextInput: next < detents.count ? detents[next] : nil), wake <= end
        else { break }
        now = wake
    }
    return figures
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    fileprivate func leftPadding(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
