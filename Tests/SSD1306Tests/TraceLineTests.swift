import SSD1306
import Testing

/// A trace line read a transfer at a time.
@Suite struct TraceLineTests {
    private func line(_ text: String, number: Int = 7) -> I2CTraceLine {
        I2CTraceLine(Array(text.utf8)[...], number: number)
    }

    @Test func transfersComeOneAtATimeAndAnErrorAfterTheOnesBeforeIt() throws {
        var reader = line("i2ctransfer -y 1 w2@0x3c 0x00 0xaf w3 0x40 0x07= w1@0x3c 0x100  # comment w1@0x3d 0")
        #expect(try reader.next() == I2CTransfer(address: .ssd1306Primary, bytes: [0x00, 0xAF]))
        #expect(try reader.next() == I2CTransfer(address: .ssd1306Primary, bytes: [0x40, 0x07, 0x07]))
        #expect(throws: I2CTraceError(line: 7, token: "0x100", problem: .invalidDataByte)) { try reader.next() }

        var finished = line("w0@0x3d\tw1@0x3c 0x00\r")
        #expect(try finished.next() == I2CTransfer(address: .ssd1306Secondary, bytes: []))
        #expect(try finished.next() == I2CTransfer(address: .ssd1306Primary, bytes: [0x00]))
        #expect(try finished.next() == nil)
        #expect(try finished.next() == nil)
    }

    @Test func aLineWithoutMessagesHasNoTransfers() throws {
        for text in ["", "   ", "# only a comment", "\r"] {
            var reader = line(text)
            #expect(try reader.next() == nil, "\(text)")
        }
        var bare = line("i2ctransfer -y -f")
        #expect(throws: I2CTraceError(line: 7, token: "i2ctransfer", problem: .missingBus)) { try bare.next() }
    }

    /// A few characters fill a whole message: `w65535@0x3c 0x40 0x00=` is 64 KiB.
    @Test func aFillMakesTheWholeMessage() throws {
        var reader = line("w65535@0x3c 0x40 0x00= w4@0x3c 0xfe+")
        let fill = try reader.next()
        #expect(fill?.bytes.count == 65_535)
        #expect(fill?.bytes.first == 0x40 && fill?.bytes.dropFirst().allSatisfy { $0 == 0 } == true)
        #expect(try reader.next()?.bytes == [0xFE, 0xFF, 0x00, 0x01])
        var short = line("w3@0x3c 0x40 0x01 0x02=")
        #expect(try short.next()?.bytes == [0x40, 0x01, 0x02])
    }
}
