// Fuzz target: bytes a command or a log writes, read as a terminal shows them (TerminalText): in
// one piece and in pieces alike, nothing but line ends left of the controls, a second reading
// changes nothing, and the page draws what it shows.
import PagerGraphics

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTerminalText(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(data, count)
    let shown = TerminalText.read(bytes)
    var pieces = TerminalText()
    // Pieces of sizes from the input's first byte: sequences and characters cut anywhere.
    let step = 1 + Int(bytes.first ?? 0) % 7
    for start in stride(from: 0, to: bytes.count, by: step) {
        pieces.feed(bytes[start..<min(bytes.count, start + step)])
    }
    precondition(pieces.text == shown, "bytes fed in pieces must read as fed whole")
    precondition(!shown.unicodeScalars.contains { $0 != "\n" && BitmapFont.isControl($0) }, "controls left")
    precondition(TerminalText.read(shown) == shown, "a second reading must change nothing")
    // A line of n columns costs at most the bytes that made it (cursor moves are clamped).
    precondition(shown.utf8.count <= 3 * bytes.count + 8 * TerminalText.maximumColumn, "output out of proportion")
    var bitmap = Bitmap(width: 128, height: 64)
    bitmap.drawText(shown, in: Rect(x: 0, y: 0, width: 128, height: 64), font: .fixed6x10)
    return 0
}
