import PagerGraphics
import SSD1306
import Testing

@Suite struct TransferBatchTests {
    static let transfers = [
        I2CTransfer(address: .ssd1306Primary, bytes: [0x00, 0x21, 0x00, 0x7F]),
        I2CTransfer(address: .ssd1306Secondary, bytes: [0x40, 0x01, 0x02]),
        I2CTransfer(address: .ssd1306Primary, bytes: [0x00, 0xAF]),
    ]

    @Test func aBatchHoldsEachTransferInOrderAsASliceOfOneBuffer() {
        let batch = TransferBatch(Self.transfers)
        #expect(batch.count == 3 && batch.byteCount == 9)
        #expect(batch.map(I2CTransfer.init) == Self.transfers)
        #expect(batch[1].address == .ssd1306Secondary && batch[1].bytes == [0x40, 0x01, 0x02])
    }

    @Test func aQueueHandsOverItsWritesOnceAndStartsAfreshOnTheNextWrite() {
        var queue = TransferQueue()
        for transfer in Self.transfers.prefix(2) { queue.write(transfer.bytes, to: transfer.address) }
        let first = queue.take()
        #expect(first.map(I2CTransfer.init) == Array(Self.transfers.prefix(2)))
        #expect(queue.take().isEmpty && queue.transfers.isEmpty)
        queue.write(Self.transfers[2].bytes, to: Self.transfers[2].address)
        #expect(queue.transfers.map(I2CTransfer.init) == [Self.transfers[2]])
        // The batch taken first was kept: the next frame's writes did not touch it.
        #expect(first.map(I2CTransfer.init) == Array(Self.transfers.prefix(2)))
        let second = queue.take()
        #expect(second.map(I2CTransfer.init) == [Self.transfers[2]])
    }

    @Test func aCopyOfADriverPlansApartFromTheOriginal() {
        // The driver plans in buffers it keeps from frame to frame; a copy (the engine is a value)
        // shares them until one writes, and must send what the original sends, moved start line included.
        var kept = SSD1306Driver(bus: TransferQueue(), panel: .ssd1306_128x64)
        kept.initialize()
        _ = kept.bus.take()
        var frame = Bitmap(width: 128, height: 64)
        for round in 0..<12 {
            frame.fill(false)
            frame.fillRect(Rect(x: round * 7 % 120, y: round * 5 % 56, width: 8, height: 8), ink: .on)
            var fresh = kept
            fresh.bus = TransferQueue()
            kept.update(to: frame, movedUpBy: round % 3 == 0 ? 8 : 0)
            fresh.update(to: frame, movedUpBy: round % 3 == 0 ? 8 : 0)
            #expect(kept.bus.take() == fresh.bus.take(), "round \(round)")
            #expect(kept.knownRAM == frame, "round \(round)")
        }
    }
}
