import PagerGraphics
import SSD1306
import TestSupport
import Testing

let display = I2CAddress.ssd1306Primary

/// The error parsing `text` throws, or nil when it parses.
func traceError(_ text: String) -> I2CTraceError? {
    do throws(I2CTraceError) {
        _ = try I2CTrace.parse(text)
        return nil
    } catch {
        return error
    }
}

@Test func transfersFormatAsI2ctransferArguments() {
    #expect(I2CTrace.format(I2CTransfer(address: display, bytes: [0x00, 0xAE, 0xD5])) == "w3@0x3c 0x00 0xae 0xd5")
    #expect(I2CTrace.format(I2CTransfer(address: .ssd1306Secondary, bytes: [])) == "w0@0x3d")
    let blank = I2CTransfer(address: display, bytes: [0x40] + [UInt8](repeating: 0, count: 1024))
    #expect(I2CTrace.format(blank, compact: true) == "w1025@0x3c 0x40 0x00=")
    #expect(
        I2CTrace.format(I2CTransfer(address: display, bytes: [0x40, 7, 7]), compact: true) == "w3@0x3c 0x40 0x07 0x07")
    #expect(
        I2CTrace.format([
            I2CTransfer(address: display, bytes: [0x00, 0xAF]), I2CTransfer(address: display, bytes: [0x40, 0x01]),
        ])
            == "w2@0x3c 0x00 0xaf\nw2@0x3c 0x40 0x01\n")
}

@Test func parsingAcceptsTheWholeWriteSyntax() throws {
    let text = """
        # a comment line, then a blank one

        w3@0x3c 0 0xAE 0325   # decimal, hex and octal (0325 = 0xd5)
        w4@60 0x10+
        w4@0x3c 0x01-
        w3@0x3c 0x7f=
        w3@0x3c 0p
        i2ctransfer -y -f 1 w1@0x3d 0x00 w2 0x40 255
        iw0@0x3c
        """
    let transfers = try I2CTrace.parse(text)
    #expect(
        transfers == [
            I2CTransfer(address: display, bytes: [0x00, 0xAE, 0xD5]),
            I2CTransfer(address: display, bytes: [0x10, 0x11, 0x12, 0x13]),
            I2CTransfer(address: display, bytes: [0x01, 0x00, 0xFF, 0xFE]),
            I2CTransfer(address: display, bytes: [0x7F, 0x7F, 0x7F]),
            I2CTransfer(address: display, bytes: [0x00, 0x50, 0xB0]),  // the man page's 0p example
            I2CTransfer(address: .ssd1306Secondary, bytes: [0x00]),
            I2CTransfer(address: .ssd1306Secondary, bytes: [0x40, 0xFF]),
            I2CTransfer(address: display, bytes: []),
        ])
}

@Test func malformedTracesNameTheLineArgumentAndExpectation() {
    let cases: [(String, Int, String, I2CTraceError.Problem)] = [
        ("w1@0x3c 0\n\nw3@0x3c 0x00 0xae", 3, "w3@0x3c", .incompleteMessage(expected: 3, found: 2)),
        ("r1@0x3c", 1, "r1@0x3c", .readUnsupported),
        ("w1@0x3c 0x100", 1, "0x100", .invalidDataByte),
        ("w1@0x3c zz", 1, "zz", .invalidDataByte),
        ("w1@0x80 0x00", 1, "w1@0x80", .invalidAddress),
        ("w1@0x3cq 0", 1, "w1@0x3cq", .invalidAddress),
        ("w1 0x00", 1, "w1", .noAddress),
        ("x1@0x3c", 1, "x1@0x3c", .missingDirection),
        ("w1@0x3c 0x05z", 1, "0x05z", .invalidSuffix),
        ("w2@0x3c 0x05+=", 1, "0x05+=", .invalidSuffix),
        ("w70000@0x3c", 1, "w70000@0x3c", .invalidLength),
        ("w@0x3c", 1, "w@0x3c", .invalidLength),
        ("w?@0x3c", 1, "w?@0x3c", .variableLengthWrite),
        ("sw1@0x3c 0", 1, "sw1@0x3c", .unsupportedFlag(UInt8(ascii: "s"))),
        ("w1:0x3c 0", 1, "w1:0x3c", .unknownSeparator),
        ("i2ctransfer -y", 1, "i2ctransfer", .missingBus),
        ("w1@0x3c 08", 1, "08", .invalidSuffix),  // 0 then '8': octal has no 8, as with strtoul
    ]
    for (text, line, token, problem) in cases {
        let error = traceError(text)
        #expect(error == I2CTraceError(line: line, token: token, problem: problem), "\(text)")
    }
    #expect(
        traceError("w3@0x3c 1 2")?.description
            == "line 1, 'w3@0x3c': expected 3 data bytes, found 2 before the end of the line")
}

@Test func recordedTracesRoundTripAndReplayToTheSameGlass() throws {
    var generator = SeededGenerator(seed: 0x7ACE_0001)
    for panel in SSD1306Panel.all {
        var driver = recordingDriver(panel)
        driver.initialize()
        for _ in 0..<5 {
            driver.writeFrame(randomBitmap(width: panel.width, height: panel.height, using: &generator))
        }
        driver.writeFrame(Bitmap(width: panel.width, height: panel.height))  // a run for compact form
        driver.send([.setContrast(0x10), .inverseDisplay(true)])
        let transfers = driver.interface.bus.transfers
        #expect(try I2CTrace.parse(I2CTrace.format(transfers)) == transfers, "\(panel.name)")
        let compact = I2CTrace.format(transfers, compact: true)
        #expect(compact.utf8.count < I2CTrace.format(transfers).utf8.count)
        let replayed = try I2CTrace.parse(compact)
        #expect(replayed == transfers, "\(panel.name)")

        var fresh = SSD1306Emulator(panel: panel)
        fresh.replay(replayed)
        #expect(fresh.glass == driver.interface.bus.base.glass, "\(panel.name)")
        #expect(fresh.registers == driver.interface.bus.base.registers, "\(panel.name)")
        #expect(fresh.glass.litPixelCount == panel.width * panel.height)  // blank frame, inverted
    }
}

@Test func aFullFrameFitsOneI2ctransferMessage() {
    var driver = recordingDriver(.ssd1306_128x64)
    driver.writeFrame(Bitmap(width: 128, height: 64))
    let longest = driver.interface.bus.transfers.map(\.bytes.count).max() ?? 0
    #expect(longest == 1025)
    #expect(longest <= I2CTrace.kernelMessageLimit)
}

@Test func tracingBusDrainsOnlyWhatWasRecorded() {
    var bus = TracingBus(SSD1306Emulator())
    bus.write([0x00, 0xAF], to: display)
    #expect(bus.drainTransfers() == [I2CTransfer(address: display, bytes: [0x00, 0xAF])])
    #expect(bus.drainTransfers().isEmpty)
    bus.write([0x00, 0xAE], to: .ssd1306Secondary)
    #expect(bus.transfers == [I2CTransfer(address: .ssd1306Secondary, bytes: [0x00, 0xAE])])
    #expect(bus.base.registers.isDisplayOn)
}

/// A bus that refuses every write, to check failed writes are not recorded.
struct RefusingBus: I2CBus {
    struct Refused: Error {}
    mutating func write(_ bytes: [UInt8], to address: I2CAddress) throws(Refused) { throw Refused() }
}

@Test func failedWritesAreNotRecordedAndTheErrorPassesThrough() {
    var driver = SSD1306Driver(bus: TracingBus(RefusingBus()), panel: .ssd1306_128x32)
    #expect(throws: RefusingBus.Refused.self) { try driver.initialize() }
    #expect(driver.interface.bus.transfers.isEmpty)
}
