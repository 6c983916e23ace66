// Fuzz target: durations (configuration and crown-script forms) and I2C addresses as people type them.
import PagerConfig
import PagerEngine
import SSD1306

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDurations(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let text = fuzzText(data, count)
    if let milliseconds = parseDuration(text) { precondition(milliseconds >= 0 && milliseconds <= 7 * 86_400_000) }
    _ = try? CrownScript(parsing: "wait " + text)
    _ = try? CrownScript(parsing: "hold " + text)
    _ = try? CrownScript(parsing: "@" + text + " +1")
    if let address = I2CAddress(parsing: text) { precondition(I2CAddress.usable.contains(address.rawValue)) }
    let bytes = fuzzBytes(data, count)
    if bytes.count >= 8 {
        let value = bytes.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        _ = I2CAddress(usable: value)
    }
    return 0
}
