// Fuzz target: Unifont .hex files indexed (in one piece and in chunks alike) and their glyphs decoded.
import PagerGraphics

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUnifontHex(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(data, count)
    let whole = try? HexFontIndex(bytes: bytes)
    var chunked = HexFontIndex()
    for start in stride(from: 0, to: bytes.count, by: 13) {
        bytes[start..<min(bytes.count, start + 13)].withUnsafeBufferPointer { chunked.add($0) }
    }
    let finished: Bool
    do {
        try chunked.finish()
        finished = true
    } catch {
        finished = false
    }
    precondition(finished == (whole != nil), "chunks must index as the whole file does")
    guard let whole else { return 0 }
    var cache = HexGlyphCache(index: whole)
    cache.cover("ABC 페이지 \u{301}", from: HexBytes(bytes))
    var bitmap = Bitmap(width: 128, height: 32)
    bitmap.drawText(
        "ABC 페이지", in: Rect(x: 0, y: 0, width: 128, height: 32), fonts: FontChain(.fixed6x10, fallbacks: [cache.font]))
    return 0
}
