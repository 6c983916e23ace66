// Fuzz target: i2ctransfer traces, replayed into the SSD1306 emulator as `crownpager replay` does.
import SSD1306

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzI2CTrace(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let transfers = try? I2CTrace.parse(fuzzText(data, count)) else { return 0 }
    precondition(
        (try? I2CTrace.parse(I2CTrace.format(transfers))) == transfers, "a parsed trace must survive a round trip")
    for panel in [SSD1306Panel.ssd1306_128x64, .ssd1306_128x32] {
        var emulator = SSD1306Emulator(panel: panel)
        emulator.replay(transfers)
        _ = emulator.glass
    }
    return 0
}
