import CrownVocabulary
import PagerCore
import PagerSettings
import TestSupport
import Testing

@testable import PagerEngine

/// Random notifications, turns, presses and time on a seeded generator: every notification is
/// shown exactly once, or dropped from a full queue with a log line, never lost, never shown twice.
@Suite struct NotificationPropertyTests {
    /// One run of `steps` random inputs, then presses until nothing is left; records an issue for
    /// each notification lost or shown twice. Returns how many were shown and how many dropped.
    static func run(seed: UInt64, steps: Int) -> (shown: Int, dropped: Int) {
        var generator = SeededGenerator(seed: seed)
        let saver: [TimeSpan?] = [nil, .seconds(2), .seconds(8)]
        var engine = NotificationEngineTests.engine(
            dimAfter: saver.randomElement(using: &generator) ?? nil,
            offAfter: Bool.random(using: &generator) ? .seconds(12) : nil)
        var instant = Int64(10_000)
        var sent: [String] = []
        var shown: [String] = []
        var dropped: [String] = []
        var onOverlay: String?

        func feed(_ input: EngineInput) {
            var effects = [engine.handle(input, at: .milliseconds(instant))]
            effects.append(engine.handle(.tick, at: .milliseconds(instant)))
            for case .notificationDropped(let notification) in effects.flatMap(\.log) {
                dropped.append(notification.message)
            }
            let now = engine.notifications.shown?.notification.message
            if let now, now != onOverlay { shown.append(now) }
            onOverlay = now
            #expect(engine.notifications.waiting.count <= engine.notifications.capacity)
            #expect(engine.isShowingNotification == (now != nil))
        }

        for _ in 0..<steps {
            instant += Int64.random(in: 0...3000, using: &generator)
            let at = Timestamp.milliseconds(instant)
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<3:
                let name = "n\(sent.count)"
                sent.append(name)
                let priority = PagerNotification.Priority.allCases.randomElement(using: &generator) ?? .active
                let timeout: TimeSpan? =
                    Bool.random(using: &generator) ? .milliseconds(Int64.random(in: 0...4000, using: &generator)) : nil
                feed(
                    .notify(
                        PagerNotification(
                            message: name + " "
                                + String(repeating: "word ", count: Int.random(in: 0...40, using: &generator)),
                            priority: priority, timeout: timeout)))
            case 3..<6: feed(.crown(.rotated(detents: Int.random(in: -3...3, using: &generator), at: at)))
            case 6: feed(.crown(.pressed(at: at)))
            case 7: feed(.crown(.released(at: at)))
            default: feed(.tick)
            }
        }
        // Then the person presses until everything has been seen.
        var presses = 0
        while engine.isShowingNotification || !engine.notifications.waiting.isEmpty, presses < 2000 {
            instant += 700
            feed(.crown(.pressed(at: .milliseconds(instant))))
            instant += 100
            feed(.crown(.released(at: .milliseconds(instant))))
            presses += 1
        }
        #expect(!engine.isShowingNotification && engine.notifications.waiting.isEmpty, "seed \(seed): left over")
        let names = { (list: [String]) in list.map { $0.split(separator: " ").first.map(String.init) ?? "" } }
        let seen = names(shown)
        let gone = names(dropped)
        #expect(Set(seen).count == seen.count, "seed \(seed): shown twice: \(seen)")
        #expect(Set(seen).isDisjoint(with: gone), "seed \(seed): dropped yet shown")
        #expect(
            Set(seen).union(gone) == Set(sent), "seed \(seed): lost \(Set(sent).subtracting(seen).subtracting(gone))")
        #expect(gone.count + seen.count == sent.count)
        return (seen.count, gone.count)
    }

    @Test func noNotificationIsLostOrShownTwice() {
        var shown = 0
        var dropped = 0
        for seed in UInt64(1)...40 {
            let counts = Self.run(seed: seed, steps: 150)
            shown += counts.shown
            dropped += counts.dropped
        }
        // The inputs reach both ends: notifications shown, and a queue full enough to drop some.
        #expect(shown > 500 && dropped > 0, "shown \(shown), dropped \(dropped)")
    }
}
