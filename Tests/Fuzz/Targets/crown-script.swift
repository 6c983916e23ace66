// Fuzz target: crown scripts (`render --crown`), their events driven through a pager and rendered.
import CrownVocabulary
import PagerEngine

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCrownScript(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let script = try? CrownScript(parsing: fuzzText(data, count)) else { return 0 }
    let events = script.events(startingAt: .zero)
    drivePager(with: events, wraps: false)
    drivePager(with: events, wraps: true)
    return 0
}
