import CrownVocabulary
import Testing

@testable import LinuxSystem

/// `MQTTConnection`, the client's decisions, in virtual time with no socket: the first attempt,
/// a name's addresses in turn, the back-off and its 30 s "held" rule, the takeover count, the
/// connect timeout and the deadlines (a quarter keepalive once connected).
@Suite struct MQTTConnectionTests {
    static func seconds(_ value: Double) -> Timestamp { .milliseconds(Int64(value * 1000)) }

    /// A connection to a numeric address, accepted at `at`.
    static func connected(at instant: Timestamp, keepalive: TimeSpan = .milliseconds(60_000)) -> MQTTConnection {
        var connection = MQTTConnection(host: "192.0.2.1", hostIsNumeric: true, keepalive: keepalive)
        var now = Timestamp.zero
        while connection.state != .connected {
            if connection.attemptIfDue(at: now) == .connect("192.0.2.1") {
                connection.connectStarted(at: now)
                now = max(now, instant)
                connection.accepted(at: now)
            } else {
                now = connection.nextDeadline(after: now, lookupPending: false) ?? now
            }
        }
        return connection
    }

    @Test func theFirstAttemptIsAtOnceAndANameIsLookedUpFirst() {
        var numeric = MQTTConnection(host: "192.0.2.1", hostIsNumeric: true, keepalive: .milliseconds(60_000))
        #expect(numeric.nextDeadline(after: .zero, lookupPending: false) == .zero)
        #expect(numeric.attemptIfDue(at: .zero) == .connect("192.0.2.1"))
        #expect(numeric.attemptIfDue(at: .zero) == nil, "one attempt at a time")

        var named = MQTTConnection(host: "broker.lan", hostIsNumeric: false, keepalive: .milliseconds(60_000))
        #expect(named.attemptIfDue(at: .zero) == .lookUp)
        #expect(named.state == .lookingUp)
        named.serviced(at: .zero)
        #expect(named.nextDeadline(after: .zero, lookupPending: true) == .milliseconds(10))
        // Two addresses: the second is tried at once when the first fails before the broker answers.
        #expect(named.lookedUp(["::1", "127.0.0.1"], at: .milliseconds(20)) == .connect("::1"))
        named.connectStarted(at: .milliseconds(20))
        #expect(named.failed("refused", .refused, at: .milliseconds(21)) == .connect("127.0.0.1"))
        named.connectStarted(at: .milliseconds(21))
        #expect(named.failed("refused", .refused, at: .milliseconds(22)) == nil)
        #expect(named.state == .waiting(reason: "refused", retryIn: .milliseconds(1000)))
        #expect(named.lastFailure == .refused)
        #expect(named.nextDeadline(after: .milliseconds(22), lookupPending: false) == .milliseconds(1022))
    }

    @Test func failuresDoubleTheWaitUpToAMinute() {
        var connection = MQTTConnection(host: "192.0.2.1", hostIsNumeric: true, keepalive: .milliseconds(60_000))
        var now = Timestamp.zero
        var waits: [Int64] = []
        for _ in 0..<9 {
            guard let retry = connection.nextDeadline(after: now, lookupPending: false) else { break }
            now = retry
            #expect(connection.attemptIfDue(at: now) == .connect("192.0.2.1"))
            connection.connectStarted(at: now)
            #expect(connection.failed("refused", .refused, at: now) == nil)
            if case .waiting(_, let wait) = connection.state { waits.append(wait.milliseconds / 1000) }
        }
        #expect(waits == [1, 2, 4, 8, 16, 32, 60, 60, 60])
    }

    @Test func aConnectionThatHeldRetriesAfterASecondOneTakenSoonKeepsDoubling() {
        // Held 30 s: the next loss is retried after 1 s, and the count of short ones is 0.
        var held = Self.connected(at: Self.seconds(5))
        _ = held.failed("lost", .lost, at: Self.seconds(35))
        #expect(held.state == .waiting(reason: "lost", retryIn: .milliseconds(1000)))
        #expect(held.shortLivedConnections == 0)

        // Taken by another client each time within a second of being accepted: the wait keeps
        // doubling across connections and each counts as short-lived (the takeover note at 2).
        var taken = MQTTConnection(host: "192.0.2.1", hostIsNumeric: true, keepalive: .milliseconds(60_000))
        var now = Timestamp.zero
        var waits: [Int64] = []
        for _ in 0..<7 {
            now = taken.nextDeadline(after: now, lookupPending: false) ?? now
            #expect(taken.attemptIfDue(at: now) == .connect("192.0.2.1"))
            taken.connectStarted(at: now)
            taken.accepted(at: now + .milliseconds(5))
            #expect(taken.connectionAge(at: now + .milliseconds(500)) == .milliseconds(495))
            now = now + .milliseconds(500)
            _ = taken.failed("the connection was lost", .lost, at: now)
            if case .waiting(_, let wait) = taken.state { waits.append(wait.milliseconds / 1000) }
        }
        #expect(waits == [1, 2, 4, 8, 16, 32, 60])
        #expect(taken.shortLivedConnections == 7)
        // 60 s of takeovers bound the attempts: 1+2+4+8+16+32 s > 60 s after 6 attempts.
    }

    @Test func aConnectionNotAcceptedInTenSecondsTimesOut() {
        var connection = MQTTConnection(host: "192.0.2.1", hostIsNumeric: true, keepalive: .milliseconds(60_000))
        _ = connection.attemptIfDue(at: .zero)
        connection.connectStarted(at: .zero)
        connection.serviced(at: .zero)
        #expect(connection.nextDeadline(after: .zero, lookupPending: false) == .milliseconds(1000))
        #expect(!connection.timedOut(at: .milliseconds(9999)))
        #expect(connection.timedOut(at: .milliseconds(10_000)))
        connection.accepted(at: .milliseconds(9000))
        #expect(!connection.timedOut(at: .milliseconds(20_000)), "accepted: nothing to time out")
    }

    @Test func connectedItIsLookedAtEachQuarterKeepaliveAndDisconnectedNever() {
        var connection = Self.connected(at: Self.seconds(1))
        connection.serviced(at: Self.seconds(2))
        #expect(connection.nextDeadline(after: Self.seconds(3), lookupPending: false) == Self.seconds(17))
        var short = Self.connected(at: Self.seconds(1), keepalive: .milliseconds(2000))
        short.serviced(at: Self.seconds(2))
        #expect(short.nextDeadline(after: Self.seconds(2), lookupPending: false) == Self.seconds(3), "at least 1 s")
        connection.disconnected()
        #expect(connection.nextDeadline(after: Self.seconds(3), lookupPending: false) == nil)
        #expect(connection.attemptIfDue(at: Self.seconds(100)) == nil)
    }

    @Test func aRefusalTriesNoOtherAddress() {
        var connection = MQTTConnection(host: "broker.lan", hostIsNumeric: false, keepalive: .milliseconds(60_000))
        _ = connection.attemptIfDue(at: .zero)
        #expect(connection.lookedUp(["::1", "127.0.0.1"], at: .zero) == .connect("::1"))
        connection.connectStarted(at: .zero)
        connection.refused("not authorised", .badCredentials, at: .milliseconds(3))
        #expect(connection.state == .waiting(reason: "not authorised", retryIn: .milliseconds(1000)))
        #expect(connection.lastFailure == .badCredentials)
    }
}
