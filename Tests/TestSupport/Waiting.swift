import Foundation

/// Asks `condition` every `interval` seconds until it holds or `seconds` pass; whether it held.
///
/// The one wait of the end-to-end tests, which watch a real process (a run on the fake bus, a
/// broker, a child) in wall-clock time; unit tests use virtual time and never wait. The condition
/// is asked once more at the deadline, so a step that landed during the last pause still counts.
/// The deadlines are generous (30 s by default): they bound a hung run, and a loaded machine
/// must not turn a slow start into a failure.
public func waitUntil(seconds: Double = 30, every interval: Double = 0.02, _ condition: () throws -> Bool) rethrows
    -> Bool
{
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: interval)
    }
    return try condition()
}
