// Fuzz target: i2ctransfer traces, read a line and a transfer at a time (I2CTraceLine) and
// replayed into the SSD1306 emulator as `crownpager replay` does (TraceReplay).
import PagerEngine
import PagerTools
import SSD1306

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzI2CTrace(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let transfers = try? I2CTrace.parse(fuzzText(data, count)) else { return 0 }
    precondition(
        (try? I2CTrace.parse(I2CTrace.format(transfers))) == transfers, "a parsed trace must survive a round trip")
    for panel in [SSD1306Panel.ssd1306_128x64, .ssd1306_128x32] {
        var emulator = SSD1306Emulator(panel: panel)
        var replay = TraceReplay(panel: panel, everyFrame: true)
        for transfer in transfers {
            emulator.write(transfer.bytes, to: transfer.address)
            let frame = replay.replay(transfer)
            let isData = transfer.bytes.first.map { $0 & 0x40 != 0 } ?? false
            precondition((frame != nil) == isData, "a frame for each display-data transaction")
        }
        precondition(replay.emulator.glass == emulator.glass, "a streamed replay shows what a whole one does")
        precondition(
            replay.diagnosticCount == emulator.diagnostics.count
                && replay.diagnostics == Array(emulator.diagnostics.prefix(replay.keptDiagnostics)),
            "the first diagnostics kept, all counted")
    }
    return 0
}
