import PagerEngine
import PagerGraphics
import PagerTools
import SSD1306
import Testing

/// A trace fed to the emulator a transfer at a time, as `crownpager replay` reads its file.
@Suite struct TraceReplayTests {
    private let on = I2CTransfer(address: .ssd1306Primary, bytes: [0x00, 0x8D, 0x14, 0xAF])
    private let dot = I2CTransfer(address: .ssd1306Primary, bytes: [0x40, 0x01])
    private let home = I2CTransfer(address: .ssd1306Primary, bytes: [0x00, 0xB0, 0x00, 0x10])

    @Test func everyDataTransactionIsAFrameNamedByItsNumberInTheTrace() {
        var replay = TraceReplay(panel: .ssd1306_128x64, everyFrame: true)
        #expect(replay.replay(on) == nil)
        let first = replay.replay(dot)
        #expect(first?.name == "transfer-00002")
        #expect(replay.replay(home) == nil)
        let second = replay.replay(I2CTransfer(address: .ssd1306Primary, bytes: [0x40, 0x00]))
        #expect(second?.name == "transfer-00004")
        var emulator = SSD1306Emulator(panel: .ssd1306_128x64)
        emulator.replay([on, dot])
        #expect(first?.glass == emulator.glass)
        #expect(second?.glass != first?.glass, "the dot is written over")
        #expect(replay.finalFrame == nil, "the last frame shows the glass already")

        // A command after the last frame changes the glass: the glass is a frame of its own.
        _ = replay.replay(I2CTransfer(address: .ssd1306Primary, bytes: [0x00, 0xA7]))
        #expect(replay.finalFrame?.name == "glass")
        #expect(replay.transferCount == 5)
    }

    @Test func withoutEveryFrameOnlyTheGlassIsAFrame() {
        var replay = TraceReplay(panel: .ssd1306_128x32)
        #expect(replay.replay(on) == nil && replay.replay(dot) == nil)
        var emulator = SSD1306Emulator(panel: .ssd1306_128x32)
        emulator.replay([on, dot])
        #expect(replay.finalFrame?.glass == emulator.glass)
        #expect(replay.finalFrame?.name == "glass")
    }

    /// A trace of bad bytes makes a problem of each; only the first few are kept.
    @Test func theFirstDiagnosticsAreKeptAndTheRestCounted() {
        var replay = TraceReplay(panel: .ssd1306_128x64, keepingDiagnostics: 3)
        let unknown = I2CTransfer(address: .ssd1306Primary, bytes: [0x00] + [UInt8](repeating: 0xFF, count: 1000))
        for _ in 0..<5 { _ = replay.replay(unknown) }
        _ = replay.replay(I2CTransfer(address: .ssd1306Secondary, bytes: [0x00, 0xAF]))
        var emulator = SSD1306Emulator(panel: .ssd1306_128x64)
        emulator.replay([unknown])
        #expect(replay.diagnostics == Array(emulator.diagnostics.prefix(3)))
        #expect(replay.diagnosticCount == 5001)
        #expect(replay.emulator.diagnostics.isEmpty, "taken from the emulator transfer by transfer")
    }
}
