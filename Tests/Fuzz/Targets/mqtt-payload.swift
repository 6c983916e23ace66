// Fuzz target: an MQTT payload to a page's value (MQTTPayload): any bytes, as a whole payload
// and as JSON under a dotted path taken from the input's first line, for a text page and a gauge;
// and the keys of the object at that path, as the device config read back from the broker is read.
import PagerEngine

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMQTTPayload(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(data, count)
    let newline = bytes.firstIndex(of: 0x0A) ?? 0
    let path = String(decoding: bytes[..<newline], as: UTF8.self)
    let payload = Array(bytes[(newline < bytes.count ? newline + 1 : newline)...])
    for gauge in [false, true] {
        for json in [nil, path, "a.b.0", "temperature"] {
            if case .success(let value) = MQTTPayload.value(of: payload, json: json, gauge: gauge), gauge {
                // A gauge's value is always a finite number.
                guard let number = Double(value), number.isFinite else { fatalError("not a number: \(value)") }
            }
        }
    }
    for json in [path, "components"] {
        // Keys only of a document that is JSON to its end, and each one a field there.
        for key in MQTTPayload.keys(of: payload, at: json) ?? [] where !key.contains(".") && !json.isEmpty {
            if case .failure(.badJSON) = MQTTPayload.value(of: payload, json: json + "." + key, gauge: false) {
                fatalError("a key of JSON the value reader calls bad: \(key)")
            }
        }
    }
    return 0
}
