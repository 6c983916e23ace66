// Fuzz target: Unifont .hex files indexed (in one piece and in chunks alike), their glyphs decoded
// and drawn, as the device reads the file (`UnifontGlyphs` over a reader) and as the browser
// page's module takes it (`WebPager`'s parts, of a size the input's first byte chooses).
import PagerEngine
import PagerGraphics
import PagerWeb

/// The browser page's pager, made once: each input is handed to it as a new font.
nonisolated(unsafe) private var pager = WebPager()

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
    let part = 1 + Int(bytes.first ?? 0)
    var handed: Int?
    do throws(WebFileError) {
        try pager.beginUnifont(byteCount: bytes.count)
        for start in stride(from: 0, to: bytes.count, by: part) {
            // The error as a value: Swift 6.0's withUnsafeBufferPointer rethrows, untyped.
            let refused: WebFileError? = bytes[start..<min(bytes.count, start + part)].withUnsafeBufferPointer {
                do throws(WebFileError) {
                    try pager.addUnifont($0)
                    return nil
                } catch {
                    return error
                }
            }
            if let refused { throw refused }
        }
        handed = try pager.finishUnifont()
    } catch {
        handed = nil
    }
    precondition(handed == whole?.count, "the page's parts must index as the whole file does")
    guard let whole else { return 0 }
    var cache = HexGlyphCache(index: whole)
    cache.cover("ABC 페이지 \u{301}", from: HexBytes(bytes))
    // The code points the file's own lines name, so glyphs are found and drawn, not only missed.
    var named: [Unicode.Scalar] = "페이지".unicodeScalars.map { $0 }
    for line in bytes.split(separator: UInt8(ascii: "\n")).prefix(64) {
        let digits = line.prefix { $0 != UInt8(ascii: ":") }
        guard digits.count <= 6, let value = UInt32(String(decoding: digits, as: UTF8.self), radix: 16),
            let scalar = Unicode.Scalar(value)
        else { continue }
        named.append(scalar)
    }
    var glyphs = UnifontGlyphs(index: whole, reader: HexBytes(bytes))
    let font = glyphs.glyphs(for: named)
    var text = String.UnicodeScalarView()
    text.append(contentsOf: named)
    var bitmap = Bitmap(width: 128, height: 32)
    bitmap.drawText(
        "ABC 페이지", in: Rect(x: 0, y: 0, width: 128, height: 32), fonts: FontChain(.fixed6x10, fallbacks: [cache.font]))
    bitmap.drawText(
        String(text), in: Rect(x: 0, y: 0, width: 128, height: 32),
        fonts: glyphs.chain(for: [String(text)], first: .fixed5x8))
    precondition(font == nil || font == glyphs.cache.font, "the engine's answer is every glyph in use")
    return 0
}
