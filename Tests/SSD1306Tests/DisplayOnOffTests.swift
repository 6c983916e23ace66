import PagerGraphics
import SSD1306
import TestSupport
import Testing

/// An emulator that keeps what its glass showed after every transaction: what a person could
/// see at each transfer boundary.
struct GlassWatchingBus: I2CBus {
    typealias Failure = Never
    var emulator: SSD1306Emulator
    var glasses: [Bitmap] = []
    var transactions: [[UInt8]] = []

    mutating func write(_ bytes: [UInt8], to address: I2CAddress) {
        emulator.write(bytes, to: address)
        glasses.append(emulator.glass)
        transactions.append(bytes)
    }

    /// Forgets what was watched so far.
    mutating func forget() {
        glasses = []
        transactions = []
    }
}

/// A driver for `panel` with `settings` on a panel just powered up, its RAM random.
func poweredUpDriver(
    _ panel: SSD1306Panel, _ settings: DisplaySettings, using generator: inout SeededGenerator
) -> SSD1306Driver<I2CDisplayInterface<GlassWatchingBus>> {
    let emulator = SSD1306Emulator(panel: panel, powerUpRAMFrom: &generator)
    return SSD1306Driver(bus: GlassWatchingBus(emulator: emulator), panel: panel, settings: settings)
}

let plainAndInverted = [DisplaySettings(), DisplaySettings(isInverted: true)]

/// What the glass shows of `frame` with `settings`: every pixel flipped when inverted (A7h).
func glassShowing(_ frame: Bitmap, _ settings: DisplaySettings) -> Bitmap {
    guard settings.isInverted else { return frame }
    var glass = Bitmap(width: frame.width, height: frame.height)
    for y in 0..<frame.height {
        for x in 0..<frame.width where !frame[x, y] { glass[x, y] = true }
    }
    return glass
}

/// The glass of `emulator` woken (AFh, charge pump on) with plain display (A6h): what RAM would show.
func wokenGlass(_ emulator: SSD1306Emulator) -> Bitmap {
    var woken = emulator
    let supply: [UInt8] = emulator.controller == .ssd1306 ? [0x8D, 0x14] : [0xAD, 0x8B]
    woken.write([0x00] + supply + [0xA6, 0xAF], to: .ssd1306Primary)
    return woken.glass
}

@Test func thePowerUpGarbageNeverShows() {
    var generator = SeededGenerator(seed: 0x5EED_00AF)
    for panel in SSD1306Panel.all {
        for settings in plainAndInverted {
            var driver = poweredUpDriver(panel, settings, using: &generator)
            #expect(driver.interface.bus.emulator.displayRAM.litPixelCount > 0)  // the garbage is there
            let frame = randomBitmap(width: panel.width, height: panel.height, using: &generator)
            driver.initialize()
            #expect(driver.isDisplayOnPending)
            driver.update(to: frame)
            let glasses = driver.interface.bus.glasses
            let name = "\(panel.name) inverted \(settings.isInverted)"
            // Dark at every boundary until Display On (AFh), the last transaction; then the frame.
            #expect(glasses.dropLast().allSatisfy { $0.litPixelCount == 0 }, "\(name)")
            #expect(glasses.last == glassShowing(frame, settings), "\(name)")
            #expect(driver.interface.bus.transactions.last == [0x00, 0xAF], "\(name)")
            #expect(driver.interface.bus.transactions.filter { $0 == [0x00, 0xAF] }.count == 1, "\(name)")
            #expect(!driver.isDisplayOnPending && driver.interface.bus.emulator.diagnostics.isEmpty, "\(name)")
        }
    }
}

@Test func aWakeAskedForWhileRAMIsUnknownWaitsForTheWholeFrame() {
    var generator = SeededGenerator(seed: 0x5EED_00B0)
    let panel = SSD1306Panel.ssd1306_128x64
    var driver = poweredUpDriver(panel, DisplaySettings(), using: &generator)
    driver.initialize()
    driver.setDisplayOn(false)  // the screen saver, before any frame
    driver.setDisplayOn(true)  // and back: RAM still random, so nothing yet
    #expect(driver.isDisplayOnPending && !driver.interface.bus.emulator.registers.isDisplayOn)
    let frame = testCard(width: panel.width, height: panel.height)
    driver.update(to: frame)
    #expect(driver.interface.bus.glasses.dropLast().allSatisfy { $0.litPixelCount == 0 })
    #expect(driver.interface.bus.glasses.last == frame)
    // With RAM known, a wake is at once.
    driver.setDisplayOn(false)
    driver.interface.bus.forget()
    driver.setDisplayOn(true)
    #expect(driver.interface.bus.transactions == [[0x00, 0xAF]] && driver.interface.bus.glasses == [frame])
}

@Test func shuttingDownGoesFromTheLastFrameStraightToDark() {
    var generator = SeededGenerator(seed: 0x5EED_00AE)
    for panel in SSD1306Panel.all {
        for settings in plainAndInverted {
            var driver = poweredUpDriver(panel, settings, using: &generator)
            let frame = testCard(width: panel.width, height: panel.height)
            driver.initialize()
            driver.update(to: frame)
            #expect(driver.interface.bus.emulator.glass == glassShowing(frame, settings))
            driver.interface.bus.forget()
            driver.shutDown()
            let name = "\(panel.name) inverted \(settings.isInverted)"
            // No boundary shows anything but dark: not a blank frame, not an inverted (white) one.
            #expect(driver.interface.bus.glasses.allSatisfy { $0.litPixelCount == 0 }, "\(name)")
            #expect(driver.interface.bus.transactions.first?.starts(with: [0x00, 0xAE]) == true, "\(name)")
            #expect(
                wokenGlass(driver.interface.bus.emulator).litPixelCount == 0, "\(name): RAM under the glass blanked")
            #expect(!driver.interface.bus.emulator.registers.isChargePumpEnabled, "\(name)")
        }
    }
}
