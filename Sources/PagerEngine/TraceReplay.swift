import CrownVocabulary
import PagerCore
import SSD1306

/// Feeds a recorded I2C trace to an emulated panel: what would a panel have shown?
///
/// Traces from `--trace` (of a headless render, a terminal run, or later a real panel) and
/// hand-written `i2ctransfer` lines replay alike.
public struct TraceReplay {
    /// The panel to emulate.
    public var panel: SSD1306Panel
    /// The address the emulated panel answers at.
    public var address: I2CAddress

    /// A replay onto `panel` at `address`.
    public init(panel: SSD1306Panel, address: I2CAddress = .ssd1306Primary) {
        self.panel = panel
        self.address = address
    }

    /// The glass after the trace (or after each display-data transaction with `everyFrame`), and
    /// what the emulator found wrong; throws when the text is not a trace.
    public func run(_ text: String, everyFrame: Bool = false) throws(I2CTraceError)
        -> (frames: [RenderedFrame], diagnostics: [SSD1306Emulator.Diagnostic])
    {
        // A trace whose first record is `cmd` or `data` is an SPI panel's.
        if SPITrace.isSPITrace(text) { return try runSPI(text, everyFrame: everyFrame) }
        let transfers = try I2CTrace.parse(text)
        var emulator = SSD1306Emulator(panel: panel, address: address)
        var frames: [RenderedFrame] = []
        for (index, transfer) in transfers.enumerated() {
            emulator.write(transfer.bytes, to: transfer.address)
            // A data transaction's control byte has D/C# (bit 6) set.
            if everyFrame, let control = transfer.bytes.first, control & 0x40 != 0 {
                frames.append(RenderedFrame(name: "transfer-" + pad(index + 1, 5), time: .zero, glass: emulator.glass))
            }
        }
        if !everyFrame || frames.last?.glass != emulator.glass {
            frames.append(RenderedFrame(name: "glass", time: .zero, glass: emulator.glass))
        }
        return (frames, emulator.diagnostics)
    }

    /// `run(_:everyFrame:)` for an SPI trace (`SPITrace`): each record into the emulator as D/C#
    /// says, a frame after each data record with `everyFrame`.
    private func runSPI(_ text: String, everyFrame: Bool) throws(I2CTraceError)
        -> (frames: [RenderedFrame], diagnostics: [SSD1306Emulator.Diagnostic])
    {
        let records = try SPITrace.parse(text)
        var emulator = SSD1306Emulator(panel: panel, address: address)
        var frames: [RenderedFrame] = []
        for (index, record) in records.enumerated() {
            emulator.send(record.kind, record.bytes)
            if everyFrame, record.kind == .data {
                frames.append(RenderedFrame(name: "transfer-" + pad(index + 1, 5), time: .zero, glass: emulator.glass))
            }
        }
        if !everyFrame || frames.last?.glass != emulator.glass {
            frames.append(RenderedFrame(name: "glass", time: .zero, glass: emulator.glass))
        }
        return (frames, emulator.diagnostics)
    }
}
