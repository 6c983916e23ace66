import CrownVocabulary
import PagerCore
import PagerEngine
import PagerGraphics
import SSD1306

/// Feeds a recorded I2C trace to an emulated panel: what would a panel have shown?
///
/// Traces from `--trace` (of a headless render, a terminal run, or later a real panel) and
/// hand-written `i2ctransfer` lines replay alike. The trace comes a transfer at a time (read
/// with `I2CTraceLine`) and frames go out as they are made, so a trace of any length replays in
/// the memory of one transfer and one glass; of the emulator's diagnostics the first few are
/// kept and the rest counted.
package struct TraceReplay {
    /// The emulated controller, as the transfers so far have left it.
    package private(set) var emulator: SSD1306Emulator
    /// Whether each display-data transaction makes a frame.
    package let everyFrame: Bool
    /// How many diagnostics are kept; the rest are only counted.
    package let keptDiagnostics: Int
    /// The first `keptDiagnostics` problems the emulator found, oldest first.
    package private(set) var diagnostics: [SSD1306Emulator.Diagnostic] = []
    /// How many problems the emulator found, kept or not.
    package private(set) var diagnosticCount = 0
    /// Transfers replayed so far.
    package private(set) var transferCount = 0
    /// The glass of the last frame `replay(_:)` returned.
    private var lastFrameGlass: Bitmap?

    /// A replay onto `panel` at `address`; with `everyFrame`, the glass after every display-data
    /// transaction is a frame too.
    package init(
        panel: SSD1306Panel, address: I2CAddress = .ssd1306Primary, everyFrame: Bool = false,
        keepingDiagnostics: Int = 20
    ) {
        emulator = SSD1306Emulator(panel: panel, address: address)
        self.everyFrame = everyFrame
        keptDiagnostics = max(0, keepingDiagnostics)
    }

    /// Sends `transfer` to the emulator; returns the glass after it when `everyFrame` asks for it
    /// (a display-data transaction), named `transfer-` and its number in the trace.
    package mutating func replay(_ transfer: I2CTransfer) -> RenderedFrame? {
        emulator.write(transfer.bytes, to: transfer.address)
        // A data transaction's control byte has D/C# (bit 6) set.
        return taken(isData: transfer.bytes.first.map { $0 & 0x40 != 0 } ?? false)
    }

    /// Sends one record of an SPI panel's trace (`SPITrace`) as D/C# says; returns the glass after
    /// it when `everyFrame` asks for it (a data record), named as an I2C trace's frames are.
    package mutating func replay(_ kind: DisplayRecordKind, _ bytes: ArraySlice<UInt8>) -> RenderedFrame? {
        emulator.send(kind, bytes)
        return taken(isData: kind == .data)
    }

    /// Counts what the emulator just took and keeps its first problems; the frame after it, when one is due.
    private mutating func taken(isData: Bool) -> RenderedFrame? {
        transferCount += 1
        if !emulator.diagnostics.isEmpty {
            diagnosticCount += emulator.diagnostics.count
            diagnostics += emulator.diagnostics.prefix(keptDiagnostics - diagnostics.count)
            emulator.removeAllDiagnostics()
        }
        guard everyFrame, isData else { return nil }
        let glass = emulator.glass
        lastFrameGlass = glass
        return RenderedFrame(name: "transfer-" + pad(transferCount, 5), time: .zero, glass: glass)
    }

    /// The glass after the last transfer, named `glass`; nil when `everyFrame`'s last frame
    /// already shows it.
    package var finalFrame: RenderedFrame? {
        let glass = emulator.glass
        guard !everyFrame || lastFrameGlass != glass else { return nil }
        return RenderedFrame(name: "glass", time: .zero, glass: glass)
    }
}
