import CrownVocabulary
import PagerEngine
import SSD1306
import Testing

@testable import CrownPagerApp

/// The run shell tells the engine how long each write took: the stopwatch around the writes on a
/// real panel, the modelled bus time on the emulator.
@Suite struct WriteTimingTests {
    static let records = DisplayBatch([
        .init(kind: .commands, bytes: [0x21, 0, 127, 0x22, 0, 7]),
        .init(kind: .data, bytes: ArraySlice(repeating: 0xFF, count: 1024)),
    ])
    static let transfers = [
        I2CTransfer(address: .ssd1306Primary, bytes: [0x00, 0x21, 0, 127, 0x22, 0, 7]),
        I2CTransfer(address: .ssd1306Primary, bytes: [0x40] + Array(repeating: 0xFF, count: 1024)),
    ]

    @Test func aRealPanelsWriteIsTimedByTheStopwatchAroundIt() throws {
        // A stopwatch that moves 3 ms a reading: the write's time is the span between its two readings.
        final class Ticks: @unchecked Sendable { var now = Timestamp.milliseconds(1000) }
        let ticks = Ticks()
        var loop = LinuxShellState(
            display: .emulator(SSD1306Emulator(panel: .ssd1306_128x64)), signals: nil, terminal: nil,
            stopwatch: {
                ticks.now = ticks.now + .milliseconds(3)
                return ticks.now
            })
        let took = try loop.write(Self.records, modelledAt: 400_000)
        #expect(took == .milliseconds(3))
        let written = loop.display.drainRecords().transfers(at: .ssd1306Primary)
        #expect(written == Self.transfers)
    }

    @Test func theEmulatorsWriteTakesItsModelledBusTime() throws {
        var loop = LinuxShellState(
            display: .emulator(SSD1306Emulator(panel: .ssd1306_128x64)), signals: nil, terminal: nil)
        let took = try loop.write(Self.records, modelledAt: 100_000)
        // 1032 bytes of 9 bits and two transactions of 11: 93.1 ms at 100 kHz.
        #expect(took == TimeSpan(nanoseconds: (1032 * 9 + 2 * 11) * 10_000))
    }
}
