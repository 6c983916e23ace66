// Fuzz target: BDF fonts read at run time, then text drawn in what decodes.
import PagerGraphics

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBDF(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let font = try? BDFFont.decode(fuzzBytes(data, count), name: "fuzz") else { return 0 }
    var bitmap = Bitmap(width: 128, height: 64)
    let chain = FontChain(font, fallbacks: [.fixed6x10])
    bitmap.drawText("Ag 페이지 \u{301}x", in: Rect(x: 0, y: 0, width: 128, height: 64), fonts: chain)
    for scalar in font.scalars.prefix(64) {
        guard let glyph = font.glyph(for: scalar) else { preconditionFailure("a listed glyph must be found") }
        bitmap.drawGlyph(glyph, at: Point(x: 10, y: 20), font: font)
    }
    return 0
}
