import PagerGraphics
import SSD1306
import TestSupport
import Testing

// Byte streams written by hand from the datasheet (sections 8.1.5.2, 10.1.3, 10.1.4, 10.2).

@Test func horizontalAddressingFillsTheWindowRowOfPagesFirstAndWraps() {
    let emulator = makeEmulator(receiving: [
        [0x00, 0x20, 0x00, 0x21, 0x10, 0x12, 0x22, 0x01, 0x02],  // horizontal, columns 16-18, pages 1-2
        [0x40, 1, 2, 3, 4, 5, 6, 7],
    ])
    let ram = emulator.displayRAM
    #expect([16, 17, 18].map { ram.pageByte(page: 1, column: $0) } == [7, 2, 3])
    #expect([16, 17, 18].map { ram.pageByte(page: 2, column: $0) } == [4, 5, 6])
    #expect(ram.litPixelCount == [7, 2, 3, 4, 5, 6].reduce(0) { $0 + $1.nonzeroBitCount })
    #expect(emulator.registers.column == 17 && emulator.registers.page == 1)
}

@Test func verticalAddressingFillsPagesFirstThenTheNextColumn() {
    let emulator = makeEmulator(receiving: [
        [0x00, 0x20, 0x01, 0x21, 0x00, 0x01, 0x22, 0x00, 0x02],  // vertical, columns 0-1, pages 0-2
        [0x40, 1, 2, 3, 4, 5, 6, 7],
    ])
    let ram = emulator.displayRAM
    #expect((0...2).map { ram.pageByte(page: $0, column: 0) } == [7, 2, 3])
    #expect((0...2).map { ram.pageByte(page: $0, column: 1) } == [4, 5, 6])
    #expect(emulator.registers.addressingMode == .vertical)
}

@Test func pageAddressingUsesTheColumnNibblesAndStaysOnItsPage() {
    var emulator = makeEmulator(receiving: [
        [0x00, 0xB3, 0x05, 0x12],  // reset mode is page addressing; page 3, column 25h
        [0x40, 0xAA, 0xBB],
    ])
    #expect(emulator.displayRAM.pageByte(page: 3, column: 0x25) == 0xAA)
    #expect(emulator.displayRAM.pageByte(page: 3, column: 0x26) == 0xBB)
    emulator.write([0x00, 0x0F, 0x17], to: .ssd1306Primary)  // column 7Fh
    emulator.write([0x40, 0x01, 0x02], to: .ssd1306Primary)
    #expect(emulator.displayRAM.pageByte(page: 3, column: 127) == 0x01)
    #expect(emulator.displayRAM.pageByte(page: 3, column: 0) == 0x02)
    #expect(emulator.registers.page == 3)
}

@Test func continuationControlBytesCarryOneByteEach() {
    // Co = 1: control, one byte, control, one byte ...; then Co = 0 starts a data stream.
    let emulator = makeEmulator(receiving: [
        [0x80, 0xB2, 0x80, 0x05, 0xC0, 0x77],
        [0x80, 0xB1, 0x40, 0x01, 0x02],
    ])
    #expect(emulator.displayRAM.pageByte(page: 2, column: 5) == 0x77)
    #expect(emulator.displayRAM.pageByte(page: 1, column: 6) == 0x01)
    #expect(emulator.displayRAM.pageByte(page: 1, column: 7) == 0x02)
    #expect(emulator.diagnostics.isEmpty)
}

@Test func argumentsMayArriveInLaterControlGroupsAndTransactions() {
    var emulator = makeEmulator(receiving: [[0x00, 0x81], [0x00, 0x33]])
    #expect(emulator.registers.contrast == 0x33)
    emulator.write([0x80, 0x81, 0x80, 0x44], to: .ssd1306Primary)
    #expect(emulator.registers.contrast == 0x44)
    emulator.write([0x00, 0x21, 0x08], to: .ssd1306Primary)
    emulator.write([0x80, 0x10, 0x00, 0xAF], to: .ssd1306Primary)
    #expect(emulator.registers.columnStart == 8 && emulator.registers.columnEnd == 16)
    #expect(emulator.registers.isDisplayOn)
    #expect(emulator.diagnostics.isEmpty)
}

@Test func scrollCommandsConsumeExactlyTheirArguments() {
    let emulator = makeEmulator(receiving: [
        [0x00, 0x26, 0x00, 0x00, 0x07, 0x02, 0x00, 0xFF, 0xAF],  // 6 arguments, then display on
        [0x00, 0x2A, 0x00, 0x01, 0x06, 0x03, 0x05, 0xA7],  // 5 arguments, then inverse
        [0x00, 0xA3, 0x08, 0x20, 0xA5],  // 2 arguments, then entire display on
        [0x00, 0x2F],
    ])
    let registers = emulator.registers
    #expect(registers.isDisplayOn && registers.isInverse && registers.isEntireDisplayOn)
    #expect(
        registers.scrollSetup
            == .setupVerticalAndHorizontalScroll(
                direction: .left, startPage: 1, interval: .frames25, endPage: 3, verticalOffset: 5))
    #expect(registers.verticalScrollFixedRows == 8 && registers.verticalScrollRows == 32)
    #expect(registers.isScrollActive)
    #expect(emulator.diagnostics.isEmpty)
    var stopped = emulator
    stopped.write([0x00, 0x2E], to: .ssd1306Primary)
    #expect(!stopped.registers.isScrollActive)
}

@Test func horizontalScrollSetupIsRecorded() {
    let emulator = makeEmulator(receiving: [[0x00, 0x27, 0x00, 0x02, 0x07, 0x05, 0x00, 0xFF]])
    #expect(
        emulator.registers.scrollSetup
            == .setupHorizontalScroll(direction: .left, startPage: 2, interval: .frames2, endPage: 5))
}

@Test func unknownCommandsAreDiagnosedAndSkipped() {
    let emulator = makeEmulator(receiving: [[0x00, 0xAE], [0x00, 0x8D, 0x14, 0xFF, 0xAF]])
    #expect(emulator.diagnostics == [.init(transaction: 1, offset: 3, problem: .unknownCommand(0xFF))])
    #expect(emulator.diagnostics.first?.description == "transaction 1, byte 3: unknown command 0xff (skipped)")
    #expect(emulator.registers.isDisplayOn)
}

@Test func otherAddressesGetNoAnswer() {
    var emulator = SSD1306Emulator(panel: .ssd1306_128x32, address: .ssd1306Secondary)
    emulator.write([0x00, 0xAF], to: .ssd1306Primary)
    #expect(!emulator.registers.isDisplayOn)
    #expect(emulator.diagnostics.map(\.problem) == [.noDevice(.ssd1306Primary)])
    emulator.write([0x00, 0xAF], to: .ssd1306Secondary)
    #expect(emulator.registers.isDisplayOn)
    #expect(emulator.transactionCount == 2)
}

@Test func otherMistakesAreDiagnosedNotFatal() {
    let emulator = makeEmulator(receiving: [
        [0x00, 0x81],  // contrast waits for its argument ...
        [0x40, 0x55],  // ... but data arrives: the command is dropped, the data stored
        [0x00, 0xA8, 0x0E],  // multiplex ratio 15 is invalid
        [0x00, 0x20, 0x03],  // addressing mode 11b is invalid
        [0x01, 0xE3],  // reserved control bits
        [0x00, 0x2F], [0x40, 0x01, 0x02],  // RAM write while scrolling (noted once)
    ])
    #expect(
        emulator.diagnostics.map(\.problem) == [
            .incompleteCommand(command: 0x81, missing: 1),
            .invalidArgument(command: 0xA8, argument: 0x0E),
            .invalidArgument(command: 0x20, argument: 0x03),
            .reservedControlBits(0x01),
            .ramWriteWhileScrolling,
        ])
    #expect(emulator.displayRAM.pageByte(page: 0, column: 0) == 0x55)
    #expect(emulator.registers.contrast == 0x7F)
    #expect(emulator.registers.multiplexRatio == 64)
    #expect(emulator.registers.addressingMode == .page)
}

@Test func resetStateMatchesTheDatasheet() {
    let registers = SSD1306Emulator().registers
    #expect(registers == SSD1306Registers())
    #expect(registers.contrast == 0x7F && !registers.isDisplayOn && !registers.isChargePumpEnabled)
    #expect(registers.addressingMode == .page && registers.multiplexRatio == 64)
    #expect(registers.comPinsConfiguration == .alternative)
    #expect(registers.displayClock == 0x80 && registers.prechargePeriod == 0x22 && registers.vcomhDeselectLevel == 0x20)
}

@Test func theSH1106TakesTheColumnNibblesInEitherOrder() {
    // Any column 0...131, from any column before, by 0xh then 1xh or 1xh then 0xh, in one
    // transaction or two: the same column, which the next data byte lands in.
    var generator = SeededGenerator(seed: 0x5EED_1106)
    for column in 0...131 {
        let low = UInt8(column & 0x0F)
        let high = 0x10 | UInt8(column >> 4)
        for order in [[low, high], [high, low]] {
            for split in [false, true] {
                let before = UInt8.random(in: 0...131, using: &generator)
                var emulator = SSD1306Emulator(panel: .sh1106_128x64)
                emulator.write([0x00, 0xB5, before & 0x0F, 0x10 | (before >> 4)], to: .ssd1306Primary)
                if split {
                    emulator.write([0x00, order[0]], to: .ssd1306Primary)
                    emulator.write([0x00, order[1]], to: .ssd1306Primary)
                } else {
                    emulator.write([0x00] + order, to: .ssd1306Primary)
                }
                #expect(emulator.registers.column == column, "column \(column) order \(order) from \(before)")
                emulator.write([0x40, 0xA5], to: .ssd1306Primary)
                #expect(emulator.displayRAM.pageByte(page: 5, column: column) == 0xA5, "column \(column)")
            }
        }
    }
}
