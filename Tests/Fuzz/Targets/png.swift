// Fuzz target: PNG images (chunks, CRCs, zlib, filters, Adam7, every colour type and depth).
import PagerGraphics

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(data, count)
    _ = try? PNG.decode(bytes)
    _ = try? PNG.decode(bytes, threshold: bytes.first ?? 0)
    return 0
}
