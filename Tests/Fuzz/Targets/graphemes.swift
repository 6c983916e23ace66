// Fuzz target: text segmented into grapheme clusters for wrapping and cutting with an ellipsis:
// no line and no cut splits a cluster, invisible characters take no width, and drawing ends.
import PagerGraphics

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGraphemes(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let text = fuzzText(data, count)
    let width = 1 + Int(count % 97)
    // Arrays of clusters, not strings: a string of the kept clusters would join a mark to the letter before a line end.
    let ink = { (text: Substring) -> [Character] in text.filter { $0 != " " && $0 != "\n" && $0 != "\r\n" } }
    let chain = FontChain(.fixed6x10, fallbacks: [.fixed10x20])
    for lines in [BitmapFont.fixed6x10.wrap(text, width: width), chain.wrap(text, width: width)] {
        precondition(lines.flatMap { ink($0[...]) } == ink(text[...]), "wrapping split a grapheme cluster")
    }
    precondition(
        BitmapFont.fixed6x10.lineCount(wrapping: text, width: width)
            == BitmapFont.fixed6x10.wrap(text, width: width).count)
    let line = text.prefix { $0 != "\n" && $0 != "\r\n" }
    for (fitted, ellipsis) in [
        (BitmapFont.fixed5x8.fitting(text, width: width), BitmapFont.fixed5x8.ellipsis),
        (chain.fitting(text, width: width), chain.ellipsis),
    ] where fitted != text && fitted.hasSuffix(ellipsis) {
        let kept = fitted.dropLast(ellipsis.count)
        precondition(Array(kept) == Array(line.prefix(kept.count)), "an ellipsis split a grapheme cluster")
    }
    var visible = String.UnicodeScalarView()
    visible.append(contentsOf: text.unicodeScalars.filter { !BitmapFont.drawsNothing($0) || $0 == "\n" })
    precondition(chain.width(of: text) == chain.width(of: String(visible)), "an invisible character took width")
    var bitmap = Bitmap(width: 128, height: 64)
    bitmap.drawText(text, in: Rect(x: 0, y: 0, width: 128, height: 64), fonts: chain)
    return 0
}
