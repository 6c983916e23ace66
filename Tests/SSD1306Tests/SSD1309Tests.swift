import PagerGraphics
import SSD1306
import TestSupport
import Testing

/// The SSD1309 (2.42" modules): the SSD1306's commands, an external panel supply, a command lock.
/// Hand-written byte streams, as the datasheet's command table reads (rev 1.1).
@Suite struct SSD1309Tests {
    /// Init without the pump, RAM page 0 column 0 lit, display on.
    let litCorner: [[UInt8]] = [
        [0x00, 0xAE, 0xA8, 0x3F, 0xA1, 0xC8, 0xDA, 0x12, 0x20, 0x00, 0x21, 0x00, 0x7F, 0x22, 0x00, 0x07],
        [0x40, 0x01],
        [0x00, 0xAF],
    ]

    @Test func theGlassLightsWithoutTheChargePump() {
        var ssd1309 = SSD1306Emulator(panel: .ssd1309_128x64)
        var ssd1306 = SSD1306Emulator(panel: .ssd1306_128x64)
        for bytes in litCorner {
            ssd1309.write(bytes, to: .ssd1306Primary)
            ssd1306.write(bytes, to: .ssd1306Primary)
        }
        // The SSD1309's panel voltage comes from the module; an SSD1306 without 8Dh 14h stays dark.
        #expect(ssd1309.glass[0, 0])
        #expect(ssd1309.glass.litPixelCount == 1)
        #expect(ssd1306.glass.litPixelCount == 0)
        #expect(ssd1309.diagnostics.isEmpty)
    }

    @Test func aLockedControllerIgnoresEveryCommandButTheUnlock() {
        var emulator = SSD1306Emulator(panel: .ssd1309_128x64)
        for bytes in litCorner { emulator.write(bytes, to: .ssd1306Primary) }
        // FDh 16h locks; A7h (inverse) and AEh (sleep) are then ignored, and said to be.
        emulator.write([0x00, 0xFD, 0x16, 0xA7, 0xAE], to: .ssd1306Primary)
        #expect(emulator.registers.isCommandLocked)
        #expect(!emulator.registers.isInverse && emulator.registers.isDisplayOn)
        #expect(emulator.glass.litPixelCount == 1)
        #expect(emulator.diagnostics.map(\.problem) == [.commandWhileLocked(0xA7), .commandWhileLocked(0xAE)])
        // FDh 12h unlocks; A7h then takes.
        emulator.write([0x00, 0xFD, 0x12, 0xA7], to: .ssd1306Primary)
        #expect(!emulator.registers.isCommandLocked && emulator.registers.isInverse)
        #expect(emulator.glass.litPixelCount == 128 * 64 - 1)
    }

    @Test func theLockTakesOnlyItsTwoValuesAndIsNoSSD1306Command() {
        var emulator = SSD1306Emulator(panel: .ssd1309_128x64)
        emulator.write([0x00, 0xFD, 0x00], to: .ssd1306Primary)
        #expect(emulator.diagnostics.map(\.problem) == [.invalidArgument(command: 0xFD, argument: 0x00)])
        #expect(!emulator.registers.isCommandLocked)
        var ssd1306 = SSD1306Emulator(panel: .ssd1306_128x64)
        ssd1306.write([0x00, 0xFD], to: .ssd1306Primary)
        #expect(ssd1306.diagnostics.map(\.problem) == [.unknownCommand(0xFD)])
        // The SSD1306B's reference current (ADh) is no SSD1309 command.
        var iref = SSD1306Emulator(panel: .ssd1309_128x64)
        iref.write([0x00, 0xAD], to: .ssd1306Primary)
        #expect(iref.diagnostics.map(\.problem) == [.unknownCommand(0xAD)])
    }

    @Test func resetValuesAreTheSSD1309s() {
        let emulator = SSD1306Emulator(panel: .ssd1309_128x64)
        #expect(emulator.registers.displayClock == 0x70)
        #expect(emulator.registers.vcomhDeselectLevel == 0x34)
        #expect(emulator.registers.contrast == 0x7F)
    }

    @Test func theDriverNeverSwitchesAPumpOnAndLeavesTheSupplyAloneAtTheEnd() {
        var driver = recordingDriver(.ssd1309_128x64)
        driver.initialize()
        driver.writeFrame(testCard(width: 128, height: 64))
        #expect(driver.interface.bus.base.glass == testCard(width: 128, height: 64))
        #expect(!driver.interface.bus.base.registers.isChargePumpEnabled)
        #expect(SSD1306Panel.ssd1309_128x64.powerOffSequence == [.displayOn(false)])
        #expect(driver.interface.bus.base.diagnostics.isEmpty)
    }
}
