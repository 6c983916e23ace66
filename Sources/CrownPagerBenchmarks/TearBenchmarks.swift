import CrownVocabulary
import PagerEngine
import PagerGraphics
import SSD1306

/// Tearing: of the panel refreshes while a page slide is on the bus, how many show parts of two
/// frames, for the engine's partial frames, the same frames with the display start line sent after
/// the rows instead of before them, and full frames (luma.oled's way), over 16 phases of the scan,
/// which nothing on an I2C module lets the driver see.
func runTearBenchmarks() {
    print("")
    print("Tearing during a page slide: ScanReplay at the panel's nominal refresh, 400 kHz, 16 scan phases")
    print("panel          method    refreshes  torn  torn %  worst phase")
    for panel in [SSD1306Panel.ssd1306_128x64, .ssd1306_128x32, .sh1106_128x64] {
        let slide = recordedSlide(panel)
        let lineLast = slide.frames.map { ($0.0, startLineLast($0.1)) }
        let methods = [("partial", slide.frames), ("line last", lineLast), ("full", fullFrames(slide, panel))]
        for (method, frames) in methods {
            let count = countTears(start: slide.start, frames: frames, panel: panel)
            let percent: Double = count.refreshes == 0 ? 0 : Double(count.torn) * 100 / Double(count.refreshes)
            var line = panel.name.padded(15) + method.padded(10)
            line += String(count.refreshes).padded(11) + String(count.torn).padded(6)
            line += fixed1(percent).padded(8) + String(count.worst)
            print(line)
        }
    }
}

/// A slide from the welcome page to the clock through the engine `run` drives: the emulator as it
/// stood before, and each frame's transfers with the instant the engine sent them.
private func recordedSlide(_ panel: SSD1306Panel) -> (start: SSD1306Emulator, frames: [(Int64, [I2CTransfer])]) {
    var sampler = TickingSampler()
    var shell = demoShell(panel, sampler: &sampler)
    let start = shell.emulator
    _ = shell.takeRecords()
    var frames: [(Int64, [I2CTransfer])] = []
    var now = Timestamp.milliseconds(100)
    var crown: [CrownEvent] = [.rotated(detents: 1, at: now)]
    while now <= .milliseconds(700) {
        if shell.turn(at: now, crown: crown, sampler: &sampler) {
            frames.append((now.nanoseconds, shell.takeRecords().transfers(at: shell.emulator.address)))
        }
        crown = []
        guard let wake = shell.wake(after: now, nextInput: nil) else { break }
        now = wake
    }
    return (start, frames)
}

/// A frame with its display start line (40h-7Fh, which the driver sends first, in the first
/// window's command transaction) sent last instead, in a transaction of its own.
private func startLineLast(_ transfers: [I2CTransfer]) -> [I2CTransfer] {
    guard var first = transfers.first, first.bytes.count >= 2, first.bytes[0] == 0x00,
        (0x40...0x7F).contains(first.bytes[1])
    else { return transfers }
    let line = first.bytes.remove(at: 1)
    var moved = (first.bytes.count > 1 ? [first] : []) + transfers.dropFirst()
    moved.append(I2CTransfer(address: first.address, bytes: [0x00, line]))
    return moved
}

/// The same frames sent whole, each at the instant the engine sent its own.
private func fullFrames(
    _ slide: (start: SSD1306Emulator, frames: [(Int64, [I2CTransfer])]), _ panel: SSD1306Panel
) -> [(Int64, [I2CTransfer])] {
    var glass = slide.start
    var driver = SSD1306Driver(bus: TracingBus(SSD1306Emulator(panel: panel)), panel: panel)
    return slide.frames.map { instant, transfers in
        glass.replay(transfers)
        driver.writeFrame(glass.glass)
        return (instant, driver.interface.bus.drainTransfers())
    }
}

/// Refreshes that began after the first frame started and ended before the last frame's end plus
/// one refresh, and how many of them equal no glass the frames left whole.
func countTears(start: SSD1306Emulator, frames: [(Int64, [I2CTransfer])], panel: SSD1306Panel, phases: Int = 16)
    -> (refreshes: Int, torn: Int, worst: Int)
{
    var clean: Set<Bitmap> = [start.glass]
    var settled = start
    for (_, transfers) in frames {
        settled.replay(transfers)
        clean.insert(settled.glass)
    }
    let hertz = ScanReplay.nominalRefreshHertz(settled.registers)
    var refreshes = 0
    var torn = 0
    var worst = 0
    for phase in 0..<phases {
        let offset = Int64(Double(phase) / Double(phases) * 1e9 / hertz)
        var replay = ScanReplay(emulator: start, refreshHertz: hertz, phase: offset, busHertz: 400_000)
        var free: Int64 = 0
        for (instant, transfers) in frames {
            var at = max(instant, free)
            for transfer in transfers { at = replay.send(transfer, at: at) }
            free = at
        }
        replay.idle(until: free + Int64(2e9 / hertz))
        let tornHere = replay.refreshes.filter { !clean.contains($0) }.count
        refreshes += replay.refreshes.count
        torn += tornHere
        worst = max(worst, tornHere)
    }
    return (refreshes, torn, worst)
}

extension String {
    fileprivate func padded(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
