import SSD1306
import Testing

/// One of each command, for properties that must hold for every case.
let sampleCommands: [SSD1306Command] = [
    .setContrast(0x8F), .entireDisplayOn(true), .entireDisplayOn(false), .inverseDisplay(true),
    .inverseDisplay(false), .displayOn(true), .displayOn(false),
    .setupHorizontalScroll(direction: .left, startPage: 1, interval: .frames25, endPage: 6),
    .setupVerticalAndHorizontalScroll(
        direction: .right, startPage: 0, interval: .frames2, endPage: 7, verticalOffset: 9),
    .deactivateScroll, .activateScroll, .setVerticalScrollArea(fixedRows: 8, scrollRows: 48),
    .setLowerColumnStartAddress(0x0A), .setHigherColumnStartAddress(0x05), .setMemoryAddressingMode(.vertical),
    .setColumnAddress(start: 28, end: 99), .setPageAddress(start: 1, end: 5), .setPageStartAddress(6),
    .setDisplayStartLine(33), .setSegmentRemap(true), .setMultiplexRatio(rows: 48),
    .setCOMOutputScanDirection(remapped: true), .setDisplayOffset(12), .setCOMPinsConfiguration(.sequential),
    .setDisplayClock(divideRatio: 2, oscillatorFrequency: 15), .setPrechargePeriod(phase1: 1, phase2: 15),
    .setVCOMHDeselectLevel(0x30), .nop, .setChargePump(true), .setChargePump(false),
    .setFadeOutAndBlinking(.blinking, interval: 3), .setZoomIn(true), .setIREF(.internalHighCurrent),
]

@Test func commandsEncodeAsTheDatasheetTablesSay() {
    #expect(SSD1306Command.setContrast(0xCF).bytes == [0x81, 0xCF])
    #expect(SSD1306Command.entireDisplayOn(true).bytes == [0xA5])
    #expect(SSD1306Command.inverseDisplay(true).bytes == [0xA7])
    #expect(SSD1306Command.displayOn(false).bytes == [0xAE])
    #expect(
        SSD1306Command.setupHorizontalScroll(direction: .right, startPage: 0, interval: .frames5, endPage: 7).bytes
            == [0x26, 0x00, 0x00, 0x00, 0x07, 0x00, 0xFF])
    #expect(
        SSD1306Command.setupHorizontalScroll(direction: .left, startPage: 2, interval: .frames2, endPage: 3).bytes
            == [0x27, 0x00, 0x02, 0x07, 0x03, 0x00, 0xFF])
    #expect(
        SSD1306Command.setupVerticalAndHorizontalScroll(
            direction: .left, startPage: 0, interval: .frames64, endPage: 7, verticalOffset: 1
        ).bytes == [0x2A, 0x00, 0x00, 0x01, 0x07, 0x01])
    #expect(SSD1306Command.setVerticalScrollArea(fixedRows: 0, scrollRows: 64).bytes == [0xA3, 0x00, 0x40])
    #expect(SSD1306Command.setLowerColumnStartAddress(0x3).bytes == [0x03])
    #expect(SSD1306Command.setHigherColumnStartAddress(0x7).bytes == [0x17])
    #expect(SSD1306Command.setMemoryAddressingMode(.page).bytes == [0x20, 0x02])
    #expect(SSD1306Command.setColumnAddress(start: 32, end: 95).bytes == [0x21, 0x20, 0x5F])
    #expect(SSD1306Command.setPageAddress(start: 0, end: 3).bytes == [0x22, 0x00, 0x03])
    #expect(SSD1306Command.setPageStartAddress(7).bytes == [0xB7])
    #expect(SSD1306Command.setDisplayStartLine(63).bytes == [0x7F])
    #expect(SSD1306Command.setSegmentRemap(false).bytes == [0xA0])
    #expect(SSD1306Command.setMultiplexRatio(rows: 64).bytes == [0xA8, 0x3F])
    #expect(SSD1306Command.setCOMOutputScanDirection(remapped: false).bytes == [0xC0])
    #expect(SSD1306Command.setDisplayOffset(0x20).bytes == [0xD3, 0x20])
    #expect(SSD1306Command.setCOMPinsConfiguration(.alternative).bytes == [0xDA, 0x12])
    #expect(
        SSD1306Command.setCOMPinsConfiguration(.init(alternative: false, leftRightRemap: true)).bytes == [0xDA, 0x22])
    #expect(SSD1306Command.setDisplayClock(divideRatio: 1, oscillatorFrequency: 8).bytes == [0xD5, 0x80])
    #expect(SSD1306Command.setPrechargePeriod(phase1: 2, phase2: 2).bytes == [0xD9, 0x22])
    #expect(SSD1306Command.setVCOMHDeselectLevel(0x20).bytes == [0xDB, 0x20])
    #expect(SSD1306Command.nop.bytes == [0xE3])
    #expect(SSD1306Command.setChargePump(true).bytes == [0x8D, 0x14])
    #expect(SSD1306Command.setChargePump(false).bytes == [0x8D, 0x10])
    #expect(SSD1306Command.setFadeOutAndBlinking(.fadeOut, interval: 1).bytes == [0x23, 0x21])
    #expect(SSD1306Command.setZoomIn(false).bytes == [0xD6, 0x00])
    #expect(SSD1306Command.setIREF(.internalHighCurrent).bytes == [0xAD, 0x30])
}

@Test func outOfRangeArgumentsAreClampedOrMaskedNeverTrapping() {
    #expect(SSD1306Command.setMultiplexRatio(rows: 0).bytes == [0xA8, 0x0F])
    #expect(SSD1306Command.setMultiplexRatio(rows: 255).bytes == [0xA8, 0x3F])
    #expect(SSD1306Command.setDisplayClock(divideRatio: 0, oscillatorFrequency: 200).bytes == [0xD5, 0xF0])
    #expect(SSD1306Command.setDisplayClock(divideRatio: 99, oscillatorFrequency: 0).bytes == [0xD5, 0x0F])
    #expect(SSD1306Command.setPrechargePeriod(phase1: 0, phase2: 0).bytes == [0xD9, 0x11])
    #expect(SSD1306Command.setPageStartAddress(9).bytes == [0xB1])
    #expect(SSD1306Command.setDisplayStartLine(64).bytes == [0x40])
    #expect(SSD1306Command.setVerticalScrollArea(fixedRows: 70, scrollRows: 99).bytes == [0xA3, 0x06, 0x40])
    #expect(SSD1306Command.setFadeOutAndBlinking(.blinking, interval: 40).bytes == [0x23, 0x3F])
    // An end page before the start page would be invalid: the end is raised to the start.
    #expect(
        SSD1306Command.setupHorizontalScroll(direction: .right, startPage: 12, interval: .frames5, endPage: 2).bytes
            == [0x26, 0x00, 0x07, 0x00, 0x07, 0x00, 0xFF])
}

@Test func everyCommandIsAsLongAsTheDecoderExpects() {
    for command in sampleCommands {
        let bytes = command.bytes
        #expect(SSD1306Command.argumentCount(opcode: bytes[0]) == bytes.count - 1, "\(bytes)")
    }
}

@Test func theEmulatorAcceptsEveryEncodedCommandWithoutDiagnostics() {
    var driver = SSD1306Driver(bus: SSD1306Emulator(), panel: .ssd1306_128x64)
    driver.send(sampleCommands.filter { $0 != .activateScroll })
    #expect(driver.interface.bus.diagnostics.isEmpty)
    #expect(driver.interface.bus.registers.contrast == 0x8F)
    #expect(driver.interface.bus.registers.multiplexRatio == 48)
    #expect(driver.interface.bus.registers.isZoomedIn)
}

@Test func comPinsConfigurationRoundTripsThroughItsByte() {
    for alternative in [false, true] {
        for remap in [false, true] {
            let configuration = COMPinsConfiguration(alternative: alternative, leftRightRemap: remap)
            #expect(COMPinsConfiguration(byte: configuration.byte) == configuration)
        }
    }
}

@Test func scrollIntervalsMatchTheDatasheetFrameCounts() {
    let frames = ScrollInterval.allCases.sorted { $0.rawValue < $1.rawValue }.map(\.frames)
    #expect(frames == [5, 64, 128, 256, 3, 4, 25, 2])
}
