// Fuzz target: what a browser may send the live mirror (method, path, Authorization header and the
// query's turn and button, as libmicrohttpd hands them over), and the streams it reads the glass
// from, in pieces of any size.
import PagerGraphics
import PagerMirror

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMirrorRequest(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(data, count)
    let token = "0123456789abcdef0123"
    // Five NUL-separated fields, as the library gives them: C strings.
    var fields = bytes.split(separator: 0, maxSplits: 4, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
    }
    while fields.count < 5 { fields.append("") }
    let request = MirrorRequest(
        method: fields[0], path: fields[1], authorization: fields[2].isEmpty ? nil : fields[2],
        turn: fields[3].isEmpty ? nil : fields[3], button: fields[4].isEmpty ? nil : fields[4])
    for router in [MirrorRouter(token: token), MirrorRouter(token: nil)] {
        switch router.answer(request) {
        case .crown(let crown):
            // Only the token turns the crown, and never by more than the limit.
            precondition(router.token != nil && request.method == "POST" && request.path == "/crown")
            precondition(request.authorization?.lowercased() == "bearer " + token)
            if case .turn(let detents) = crown {
                precondition(detents != 0 && abs(detents) <= MirrorRouter.maximumDetents)
            }
        case .refused(let status, let reason):
            precondition([400, 401, 403, 404, 405].contains(status) && reason.hasSuffix("\n"))
        case .page, .glassPNG, .events:
            precondition(request.method == "GET" || request.method == "HEAD")
        }
    }
    // The same bytes as glasses and reads: what a stream gets is its retry line, then whole events.
    var feed = MirrorFeed()
    let stream = feed.open()
    var received: [UInt8] = []
    for (index, byte) in bytes.prefix(64).enumerated() {
        if byte & 1 == 0 {
            var glass = Bitmap(width: 16, height: 8)
            glass[Int(byte >> 1) % 16, index % 8] = true
            _ = feed.update(glass)
        } else {
            received += feed.read(stream, capacity: Int(byte >> 1)) ?? []
        }
    }
    while let piece = feed.read(stream, capacity: 4096), !piece.isEmpty { received += piece }
    let text = String(decoding: received, as: UTF8.self)
    precondition(text.hasPrefix("retry: \(MirrorFeed.retryMilliseconds)\n\n"))
    for event in text.split(separator: "\n\n").dropFirst() {
        precondition(event.hasPrefix("event: glass\nid: ") && event.contains("\ndata: 16 8 "))
    }
    precondition(text.hasSuffix("\n\n"))
    return 0
}
