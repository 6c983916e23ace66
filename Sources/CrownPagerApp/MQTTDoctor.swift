import CrownVocabulary
import LinuxSystem
import PagerSettings

/// `crownpager doctor mqtt`: connects to `[mqtt]`'s broker as the pager would, subscribes,
/// publishes and waits for its own message to come back, and says what went wrong if it did not
/// (connection refused, bad credentials, TLS name mismatch, unreachable, no answer).
package enum MQTTDoctor {
    /// The outcome: whether the round trip worked, and the lines to print.
    package static func check(_ configuration: Configuration, timeout: TimeSpan) throws(CrownPagerError) -> (
        worked: Bool, lines: [String]
    ) {
        guard let bridge = try MQTTBridge(configuration) else {
            return (false, ["mqtt: off: [mqtt] has no host; set host = \"the broker's name or address\""])
        }
        let client = bridge.client
        let topic = bridge.base + "/doctor"
        let nonce = "crownpager doctor \(MonotonicClock.now().nanoseconds)"
        client.subscribe(topic)
        var lines = ["mqtt: \(client.options.host):\(client.options.port) as \(client.options.clientID)"]
        var failures: [(reason: String, failure: MQTTFailure?)] = []
        let end = MonotonicClock.now() + timeout
        var published = false
        while MonotonicClock.now() < end {
            let now = MonotonicClock.now()
            let descriptors = client.descriptor.map { [$0] } ?? []
            let readable = (try? Readiness.wait(for: descriptors, timeoutMilliseconds: 10))?.first ?? false
            let served = client.service(readable: readable, at: now)
            if case .waiting(let reason, _)? = served.changed, !failures.contains(where: { $0.reason == reason }) {
                failures.append((reason, client.lastFailure))
            }
            if served.changed == .connected {
                lines.append("mqtt: connected; publishing on \(topic)")
                published = client.publish(topic, nonce, retain: false)
            }
            if published, served.messages.contains(where: { $0.topic == topic && $0.payload == Array(nonce.utf8) }) {
                client.disconnect(saying: nil)
                return (true, lines + ["mqtt: subscribed, published and received: the broker works for the pager"])
            }
        }
        if failures.isEmpty {
            let failure = client.state == .connecting ? MQTTFailure.noAnswer : .unreachable
            failures = [("nothing within \(timeout.milliseconds / 1000) s (\(client.state))", failure)]
        }
        // The kind first (refused, bad credentials, TLS name mismatch, unreachable), then the details and the fix.
        return (
            false,
            lines
                + failures.map { failed in
                    guard let failure = failed.failure else { return "mqtt: failed: \(failed.reason)" }
                    return "mqtt: failed: \(failure): \(failed.reason); \(failure.fix)"
                }
        )
    }
}
