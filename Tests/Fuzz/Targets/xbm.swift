// Fuzz target: XBM images (C source text), and the round trip of what decodes.
import PagerGraphics

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXBM(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let bitmap = try? XBM.decode(fuzzText(data, count)) else { return 0 }
    precondition(
        (try? XBM.decode(XBM.encode(bitmap, name: "fuzz"))) == bitmap, "a decoded XBM must survive a round trip")
    return 0
}
