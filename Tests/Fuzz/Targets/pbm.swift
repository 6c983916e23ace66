// Fuzz target: PBM images (plain P1 and raw P4), and the round trip of what decodes.
import PagerGraphics

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPBM(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let bitmap = try? PBM.decode(fuzzBytes(data, count)) else { return 0 }
    precondition((try? PBM.decode(PBM.raw(bitmap))) == bitmap, "a decoded PBM must survive a raw round trip")
    return 0
}
