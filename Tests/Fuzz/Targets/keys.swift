// Fuzz target: terminal key and mouse sequences, fed whole and split at every point the input names.
import GlassViews

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeys(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(data, count)
    var whole = KeyDecoder()
    let all = whole.feed(bytes)
    // Splitting the bytes anywhere must not change the commands (the decoder's promise).
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    var split = KeyDecoder()
    let pieces = split.feed(bytes[..<cut]) + split.feed(bytes[cut...])
    precondition(pieces == all, "splitting the input changed the commands")
    var bytewise = KeyDecoder()
    var one: [TerminalCommand] = []
    for byte in bytes { one += bytewise.feed([byte]) }
    precondition(one == all, "feeding byte by byte changed the commands")
    _ = whole.flush()
    return 0
}
