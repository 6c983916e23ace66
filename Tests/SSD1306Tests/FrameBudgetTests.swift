import PagerGraphics
import SSD1306
import TestSupport
import Testing

// A frame byte budget: the driver weighs an update without sending it, sends what it weighed, and
// sends a frame that costs more than the budget in parts, the rest with the next update.

/// Bytes on the bus with the address byte of each transaction, as `DisplayUpdatePlanner.cost` counts them.
private func cost(of transfers: [I2CTransfer]) -> Int {
    transfers.reduce(0) { $0 + $1.bytes.count + 1 }
}

@Test func aWeighedUpdateCostsWhatItSendsAndIsSentAsWeighed() {
    var generator = SeededGenerator(seed: 0xB0D6)
    for panel in SSD1306Panel.all {
        var driver = recordingDriver(panel)
        driver.initialize()
        driver.update(to: randomBitmap(width: panel.width, height: panel.height, using: &generator))
        var twin = driver
        _ = driver.interface.bus.drainTransfers()
        _ = twin.interface.bus.drainTransfers()
        for round in 0..<20 {
            var frame = driver.knownRAM ?? Bitmap(width: panel.width, height: panel.height)
            let rows = Int.random(in: -8...8, using: &generator)
            for _ in 0..<Int.random(in: 1...200, using: &generator) {
                frame[
                    Int.random(in: 0..<panel.width, using: &generator),
                    Int.random(in: 0..<panel.height, using: &generator)
                ]
                .toggle()
            }
            let planned = driver.plannedCost(of: frame, movedUpBy: rows)
            let wrote = driver.writePlannedUpdate()
            twin.update(to: frame, movedUpBy: rows)
            let sent = cost(of: driver.interface.bus.drainTransfers())
            let sentByUpdate = cost(of: twin.interface.bus.drainTransfers())
            #expect(wrote, "\(panel.name) round \(round)")
            #expect(sent == planned, "\(panel.name) round \(round)")
            #expect(sent == sentByUpdate, "\(panel.name) round \(round): as update(to:movedUpBy:) sends it")
            #expect(driver.interface.bus.base.glass == frame, "\(panel.name) round \(round)")
            // Nothing is weighed now: nothing goes.
            let again = driver.writePlannedUpdate()
            #expect(!again)
        }
    }
}

@Test func aFrameOverTheBudgetGoesInPartsEachWithinItAndTheGlassEndsEqualToIt() {
    var generator = SeededGenerator(seed: 0xB0D7)
    for panel in SSD1306Panel.all {
        for rotation in DisplayRotation.allCases {
            var driver = recordingDriver(panel, rotation: rotation)
            driver.initialize()
            driver.update(to: randomBitmap(width: panel.width, height: panel.height, using: &generator))
            _ = driver.interface.bus.drainTransfers()
            // A new picture: every page changes, more than 300 bytes on most panels.
            let frame = randomBitmap(width: panel.width, height: panel.height, using: &generator)
            let expected = rotation == .normal ? frame : frame.rotated180()
            var parts = 0
            var isWhole = false
            while !isWhole, parts < 10 {
                isWhole = driver.update(to: frame, movedUpBy: 0, byteBudget: 300)
                parts += 1
                let sent = cost(of: driver.interface.bus.drainTransfers())
                #expect(sent <= 300, "\(panel.name) \(rotation) part \(parts): \(sent) bytes")
                #expect(driver.knownRAM != nil, "\(panel.name): RAM stays known")
                if !isWhole { #expect(driver.interface.bus.base.glass != expected) }
            }
            #expect(isWhole)
            // A panel whose whole frame fits in the budget (64x32: 256 bytes) takes it at once.
            let fitsAtOnce = panel.width * panel.pageCount + 20 <= 300
            #expect(parts >= 2 || fitsAtOnce, "\(panel.name) \(rotation)")
            #expect(driver.interface.bus.base.glass == expected, "\(panel.name) \(rotation)")
            #expect(driver.knownRAM == frame)
            #expect(driver.interface.bus.base.diagnostics.isEmpty)
        }
    }
}
