import CAllocationCounter
import CrownVocabulary
import PagerCore
import PagerEngine
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306

/// The workloads `Scripts/bench/bench-vs-luma.sh` renders in luma.oled too, on the production path:
/// the engine `run` drives, its ticks timed alone (render and encode: the pager draws the frame,
/// the driver turns it into I2C bytes), their transfers counted, and the heap allocations each
/// tick makes counted by the interposed allocator (`CAllocationCounter`). The shell's own
/// allocations doing the tick's effects (`VirtualShell.perform`: its copy of the transfers for
/// the trace it keeps, the emulator, `.written`) are counted apart: they are not the tick's.
///
/// One line a workload, tab-separated, for the script to pair with luma's:
///
///     workload  frames  median µs  mean µs  bytes a frame  allocations a frame  the shell's a frame
///
/// `only` names one workload (text, slide, clock, drawing, large) to run alone, for a profiler;
/// `scale` multiplies its frames (1 by default: 2000 text frames, 100 slides, 1000 clock ticks),
/// so that two runs' difference is what the frames alone cost (`bench-vs-luma.sh --instructions`).
func runLumaComparison(only: String? = nil, scale: Int = 1) {
    let counting = crownpager_allocation_counting() != 0
    let workloads: [(String, (Int) -> FrameFigures)] = [
        ("text", textFrame), ("slide", slide), ("clock", clockTick), ("drawing", drawingOnly),
        ("large", largeTextFrame),
    ]
    for (name, workload) in workloads where only == nil || only == name {
        print(workload(max(1, scale)).line(counting: counting))
    }
}

/// The title and body the text workload shows (four lines: the page fits the screen); the script draws the same in luma.
let lumaTextTitle = "Notes"
let lumaTextBody = "CrownPager draws watch-style pages on a small OLED. Turn the crown to page."

/// Per-frame figures of one workload.
struct FrameFigures {
    var name: String
    var nanoseconds: [Int64] = []
    var bytes = 0
    var allocations: UInt64 = 0
    /// The shell's allocations doing the frames' effects; nil where no shell runs.
    var shellAllocations: UInt64?

    mutating func add(
        nanoseconds elapsed: Duration, bytes frameBytes: Int, allocations frameAllocations: UInt64,
        shellAllocations shell: UInt64? = nil
    ) {
        nanoseconds.append(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
        bytes += frameBytes
        allocations += frameAllocations
        if let shell { shellAllocations = (shellAllocations ?? 0) + shell }
    }

    func line(counting: Bool) -> String {
        let frames = max(1, nanoseconds.count)
        let sorted = nanoseconds.sorted()
        let median = sorted.isEmpty ? 0 : Double(sorted[sorted.count / 2]) / 1000
        let mean = Double(nanoseconds.reduce(0, +)) / Double(frames) / 1000
        let allocationsPerFrame = counting ? fixed2(Double(allocations) / Double(frames)) : "-"
        let shellPerFrame = counting ? shellAllocations.map { fixed2(Double($0) / Double(frames)) } ?? "-" : "-"
        return [
            name, String(nanoseconds.count), fixed2(median), fixed2(mean), fixed1(Double(bytes) / Double(frames)),
            allocationsPerFrame, shellPerFrame,
        ].joined(separator: "\t")
    }
}

/// A configuration of two text pages and the demo's clock, on the built-in panel, without the
/// screen saver; the first page in `firstSize`.
private func comparisonShell(firstSize: PageTextSize = .normal) -> (VirtualShell, TickingSampler) {
    var configuration = Configuration.demo()
    let clockPages = configuration.pages.filter { $0.title == "Clock" }
    configuration.display.bus = nil
    configuration.display.dimAfter = nil
    configuration.display.offAfter = nil
    configuration.pages =
        [
            PageSpec(title: lumaTextTitle, kind: .text(firstSize == .large ? lumaLargeText : lumaTextBody)),
            PageSpec(title: "Later", kind: .text(lumaTextBody)),
        ] + clockPages
    configuration.pages[0].size = firstSize
    var sampler = TickingSampler()
    var shell = VirtualShell.started(configuration, sampler: &sampler)
    // Until the indicator plate has faded and nothing moves.
    shell.run(events: [], from: .zero, until: .milliseconds(5000), sampler: &sampler)
    return (shell, sampler)
}

/// Times `shell`'s tick at `now` and records it when a frame went out. A tick that asks for the
/// clock draws its frame as the reading comes (`reading`, answered within the timing).
private func timedTick(
    _ shell: inout VirtualShell, at now: Timestamp, sampler: inout TickingSampler, into figures: inout FrameFigures,
    reading: ClockReading? = nil
) {
    let clock = ContinuousClock()
    let allocationsBefore = crownpager_allocation_count()
    let started = clock.now
    var effects = shell.engine.handle(.tick, at: now)
    if effects.readsClock, let reading { effects = shell.engine.handle(.clock(reading), at: now) }
    let elapsed = started.duration(to: clock.now)
    let allocations = crownpager_allocation_count() - allocationsBefore
    let bytes = effects.display.framedByteCount
    let shellBefore = crownpager_allocation_count()
    let sent = shell.perform(effects, at: now, sampler: &sampler)
    let shellAllocations = crownpager_allocation_count() - shellBefore
    if sent, bytes > 0 {
        figures.add(nanoseconds: elapsed, bytes: bytes, allocations: allocations, shellAllocations: shellAllocations)
    }
}

/// The value the large-text workload shows: two lines of Spleen 16x32 on the 128x64 panel.
let lumaLargeText = "21.5\u{B0}C"

/// The text page drawn and sent whole, as after a redraw: the frame luma's `display()` sends every time.
private func textFrame(scale: Int) -> FrameFigures {
    fullFrames(of: .normal, named: "text frame (full)", scale: scale)
}

/// The text workload with the page's text large (`size = "large"`): no luma counterpart, for
/// its figure beside the text frame's.
private func largeTextFrame(scale: Int) -> FrameFigures {
    fullFrames(of: .large, named: "large text frame (full)", scale: scale)
}

/// The first page, its text in `size`, drawn and sent whole 2000 times a scale.
private func fullFrames(of size: PageTextSize, named name: String, scale: Int) -> FrameFigures {
    var (shell, sampler) = comparisonShell(firstSize: size)
    var figures = FrameFigures(name: name)
    var now = Timestamp.milliseconds(5000)
    for _ in 0..<(2000 * scale) {
        // A full frame takes about 26 ms at 400 kHz; the pacer sends nothing sooner.
        now = now + .milliseconds(40)
        shell.feed(.redraw, at: now, sampler: &sampler)
        timedTick(&shell, at: now, sampler: &sampler, into: &figures)
    }
    return figures
}

/// One detent from the first text page to the second, every frame of the slide, many times over.
private func slide(scale: Int) -> FrameFigures {
    var (shell, sampler) = comparisonShell()
    var figures = FrameFigures(name: "slide (per frame)")
    var now = Timestamp.milliseconds(5000)
    // One slide there and back first, untimed: the renderer's and driver's buffers (page
    // drawings, the indicator's dots, the plans) are made by the first slide and kept after it.
    for detents in [1, -1] {
        now = now + .milliseconds(1000)
        shell.run(
            events: [.rotated(detents: detents, at: now)], from: now, until: now + .milliseconds(900),
            sampler: &sampler)
        now = now + .milliseconds(900)
    }
    for turn in 0..<(100 * scale) {
        now = now + .milliseconds(1000)
        shell.feed(.crown(.rotated(detents: turn % 2 == 0 ? 1 : -1, at: now)), at: now, sampler: &sampler)
        let end = now + .milliseconds(900)
        while now <= end {
            timedTick(&shell, at: now, sampler: &sampler, into: &figures)
            guard let wake = shell.wake(after: now, nextInput: nil), wake <= end else { break }
            now = wake
        }
    }
    return figures
}

/// The clock page as its second turns over: the digits that changed go out.
private func clockTick(scale: Int) -> FrameFigures {
    var (shell, sampler) = comparisonShell()
    // Two pages on, to the clock, one detent a second.
    let turns: [CrownEvent] = [
        .rotated(detents: 1, at: .milliseconds(5000)), .rotated(detents: 1, at: .milliseconds(6000)),
    ]
    shell.run(events: turns, from: .milliseconds(5000), until: .milliseconds(9000), sampler: &sampler)
    var figures = FrameFigures(name: "clock tick")
    var now = Timestamp.milliseconds(9000)
    for _ in 0..<(1000 * scale) {
        // The next second: its tick asks for the clock, and the frame is drawn as the reading comes.
        now = Timestamp.milliseconds((now.nanoseconds / 1_000_000_000 + 1) * 1000)
        while let wake = shell.engine.nextDeadline, wake < now {
            shell.turn(at: wake, crown: [], sampler: &sampler)
        }
        timedTick(&shell, at: now, sampler: &sampler, into: &figures, reading: sampler.clock(at: now))
    }
    return figures
}

/// The drawing alone, into one reused frame: the text workload's title, rule and lines, then the
/// frame blitted onto a second one, as the renderer places a page. Not the production path (the
/// engine's allocations are its own); it shows what the drawing itself allocates.
private func drawingOnly(scale: Int) -> FrameFigures {
    let font = BitmapFont.fixed6x10
    let lines = font.wrap(lumaTextBody, width: 122)
    var page = Bitmap(width: 122, height: 64)
    var frame = Bitmap(width: 128, height: 64)
    var figures = FrameFigures(name: "drawing only (no engine)")
    let clock = ContinuousClock()
    for round in 0..<2000 {
        let allocationsBefore = crownpager_allocation_count()
        let started = clock.now
        page.fill(false)
        page.drawText(lumaTextTitle, at: Point(x: 0, y: 0), font: font)
        page.drawHorizontalLine(x: 0, y: 10, length: font.width(of: lumaTextTitle))
        for (index, line) in lines.enumerated() {
            page.drawText(line, at: Point(x: 0, y: 12 + index * font.lineHeight), font: font)
        }
        frame.blit(page, at: Point(x: 0, y: round % 8), opaque: true)
        let elapsed = started.duration(to: clock.now)
        figures.add(
            nanoseconds: elapsed, bytes: 0, allocations: crownpager_allocation_count() - allocationsBefore)
    }
    return figures
}
