import PagerGraphics
import SSD1306
import TestSupport

/// A bitmap of random pixels, the same for the same generator state.
func randomBitmap(width: Int, height: Int, using generator: inout SeededGenerator) -> Bitmap {
    let count = width * ((height + 7) / 8)
    let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    return Bitmap(width: width, height: height, pageBytes: bytes) ?? Bitmap(width: width, height: height)
}

/// An emulator that received `transactions` (raw bytes, control byte first) at its own address.
func makeEmulator(_ panel: SSD1306Panel = .ssd1306_128x64, receiving transactions: [[UInt8]]) -> SSD1306Emulator {
    var emulator = SSD1306Emulator(panel: panel)
    for bytes in transactions { emulator.write(bytes, to: .ssd1306Primary) }
    return emulator
}

/// Charge pump on, display on: the least that makes the glass light.
let powerOn: [UInt8] = [0x00, 0x8D, 0x14, 0xAF]

/// A driver on an emulator behind a recording bus.
func recordingDriver(
    _ panel: SSD1306Panel, rotation: DisplayRotation = .normal
) -> SSD1306Driver<I2CDisplayInterface<TracingBus<SSD1306Emulator>>> {
    SSD1306Driver(
        bus: TracingBus(SSD1306Emulator(panel: panel)), panel: panel, settings: DisplaySettings(rotation: rotation))
}

/// A test card: border, diagonal, a filled block and an F, so any flip, shift or squash shows.
/// Only rectangles and a line, so the pictures do not depend on curve rasterization.
func testCard(width: Int, height: Int) -> Bitmap {
    var card = Bitmap(width: width, height: height)
    card.strokeRect(card.bounds)
    card.drawLine(from: Point(x: 0, y: 0), to: Point(x: width - 1, y: height - 1))
    card.fillRect(Rect(x: 4, y: 4, width: width / 6, height: height / 4))
    let left = width * 5 / 8
    let top = height / 4
    let tall = height / 2
    card.fillRect(Rect(x: left, y: top, width: 3, height: tall))  // the F's stem
    card.fillRect(Rect(x: left, y: top, width: width / 6, height: 2))  // its top bar
    card.fillRect(Rect(x: left, y: top + tall / 2 - 1, width: width / 9, height: 2))  // its middle bar
    return card
}
