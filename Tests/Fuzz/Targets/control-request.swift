// Fuzz target: what a client may send down the control socket, split into reads anywhere.
import PagerControl

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControlRequest(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(data, count)
    // The first byte chooses where the reads split the rest, as recv(2) may.
    let split = Int(bytes.first ?? 0) + 1
    var buffer = ControlLineBuffer()
    var items: [ControlLineBuffer.Item] = []
    var offset = min(1, bytes.count)
    while offset < bytes.count {
        let end = min(bytes.count, offset + split)
        items += buffer.append(bytes[offset..<end])
        offset = end
    }
    for (index, item) in items.enumerated() {
        switch item {
        case .overflow:
            // Nothing comes after an overflow: the connection is closed.
            precondition(index == items.count - 1 && buffer.overflowed)
        case .request(.success(let request)):
            // A request that parsed formats to one line that parses to itself.
            let line = request.line
            precondition(line.utf8.last == UInt8(ascii: "\n") && !line.utf8.dropLast().contains(UInt8(ascii: "\n")))
            if line.utf8.count <= ControlProtocol.maximumLineBytes {
                let again = try? ControlRequest(parsing: Array(line.utf8.dropLast()))
                precondition(again == request)
            }
        case .request(.failure(let error)):
            // Every refusal answers with one line that reads back as an error.
            let response = error.response
            precondition(ControlResponse(parsing: response.line.dropLast()) == response)
        }
    }
    precondition(buffer.overflowed || items.count == bytes.dropFirst().filter { $0 == UInt8(ascii: "\n") }.count)
    return 0
}
