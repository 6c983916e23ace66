// Fuzz target: the zlib inflater (stored, fixed and dynamic Huffman blocks, Adler-32).
import PagerGraphics

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInflate(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(data, count)
    if let output = try? Inflate.zlib(bytes, maximumOutput: 1 << 20) { precondition(output.count <= 1 << 20) }
    _ = try? Inflate.zlib(bytes, maximumOutput: 0)
    return 0
}
