import CrownVocabulary

/// What the MQTT connection does next, decided from what happened and when: the pure half of
/// `MQTTClient`, which only does the I/O (libmosquitto, the name lookup) and tells this what came
/// of it. Standard library and `CrownVocabulary` only, so it runs in unit tests on a virtual clock.
///
/// The rules: the first attempt at once; a name looked up first (its addresses tried in the
/// resolver's order until one answers: a broker that refuses answers for all of them); a lost
/// connection or a failed attempt tried again after 1 s, doubling up to `maximumBackoff`; the wait
/// starts again from 1 s only after a connection held `holdingTime`, so two clients with one id,
/// each taking the connection from the other, back off (`shortLivedConnections` counts them); a
/// connection not accepted within `connectTimeout` is given up.
package struct MQTTConnection: Hashable, Sendable {
    /// What the I/O half is to do now.
    package enum Step: Hashable, Sendable {
        /// Look the broker's name up (getaddrinfo_a), then report `lookedUp` or `lookupFailed`.
        case lookUp
        /// Connect to this numeric address, then report `connectStarted` or `connectFailed`.
        case connect(String)
    }

    /// The longest wait between attempts.
    package static let maximumBackoff = TimeSpan.milliseconds(60_000)
    /// A connection that lasts this long has held: the next loss is retried after 1 s again.
    package static let holdingTime = TimeSpan.milliseconds(30_000)
    /// How long a connection may take to be accepted before it is dropped and tried again.
    package static let connectTimeout = TimeSpan.milliseconds(10_000)

    /// The broker's name or numeric address, as configured.
    package let host: String
    /// Whether `host` is a numeric address (no lookup).
    package let hostIsNumeric: Bool
    /// MQTT's keep-alive, which sets how often a connection made is looked at.
    package let keepalive: TimeSpan
    /// The connection's state now.
    package private(set) var state: MQTTConnectionState = .waiting(reason: "not started", retryIn: .zero)
    /// What ended the last attempt that failed; nil before any did.
    package private(set) var lastFailure: MQTTFailure?
    /// How many connections in a row were closed within `holdingTime` of being accepted; 0 once one held.
    package private(set) var shortLivedConnections = 0
    /// When the next attempt starts; nil while one is under way or the client was disconnected.
    package private(set) var retryAt: Timestamp? = .zero
    /// The wait after the next failure.
    private var backoff = TimeSpan.milliseconds(1000)
    /// When the attempt under way started.
    private var connectStartedAt: Timestamp?
    /// When the broker accepted the connection that is up; nil while none is.
    private var connectedAt: Timestamp?
    /// The looked-up addresses not tried yet, in the resolver's order.
    private var untried: [String] = []
    /// When the I/O half last serviced the connection, which `nextDeadline` counts from.
    private var servicedAt: Timestamp?

    /// A connection to `host` with `keepalive`; its first attempt is due at once.
    package init(host: String, hostIsNumeric: Bool, keepalive: TimeSpan) {
        self.host = host
        self.hostIsNumeric = hostIsNumeric
        self.keepalive = keepalive
    }

    /// How long the connection that is up has lasted at `now`; nil while none is.
    package func connectionAge(at now: Timestamp) -> TimeSpan? { connectedAt.map { now - $0 } }

    /// The I/O half looked at the connection at `now`.
    package mutating func serviced(at now: Timestamp) { servicedAt = now }

    /// The next attempt, when it is due at `now` and no lookup is under way.
    package mutating func attemptIfDue(at now: Timestamp) -> Step? {
        guard let due = retryAt, due <= now, state != .lookingUp else { return nil }
        retryAt = nil
        untried = []
        if hostIsNumeric { return .connect(host) }
        state = .lookingUp
        return .lookUp
    }

    /// The lookup could not start or found no address: wait, and try again.
    package mutating func lookupFailed(_ reason: String, at now: Timestamp) {
        _ = wait(reason, .unreachable, at: now)
    }

    /// The lookup found `addresses` (at least one): the first is tried, the others kept.
    package mutating func lookedUp(_ addresses: [String], at now: Timestamp) -> Step? {
        guard let first = addresses.first else {
            lookupFailed("\(host) was not found", at: now)
            return nil
        }
        untried = Array(addresses.dropFirst())
        state = .connecting
        return .connect(first)
    }

    /// The connect under way started at `now`.
    package mutating func connectStarted(at now: Timestamp) {
        state = .connecting
        connectStartedAt = now
    }

    /// The connect could not start, or the connection under way or up was lost (`failed`,
    /// `lost`): the next address before the broker answered, else a wait.
    package mutating func failed(_ reason: String, _ failure: MQTTFailure, at now: Timestamp) -> Step? {
        wait(reason, failure, at: now)
    }

    /// The broker accepted the connection at `now`.
    package mutating func accepted(at now: Timestamp) {
        state = .connected
        connectedAt = now
        untried = []
    }

    /// The broker refused the connection (a CONNACK code): its other addresses would answer the same.
    package mutating func refused(_ reason: String, _ failure: MQTTFailure, at now: Timestamp) {
        untried = []
        _ = wait(reason, failure, at: now)
    }

    /// Whether the connection under way has waited past `connectTimeout` at `now`.
    package func timedOut(at now: Timestamp) -> Bool {
        guard state == .connecting, let started = connectStartedAt else { return false }
        return now - started >= Self.connectTimeout
    }

    /// The client disconnected on purpose: no attempt follows.
    package mutating func disconnected() {
        state = .waiting(reason: "disconnected", retryIn: .zero)
        connectedAt = nil
        retryAt = nil
    }

    /// When the I/O half must look at the connection next without input, with a lookup
    /// `lookupPending`: every 10 ms while one is; a connection being made each second (its
    /// timeout); one made each quarter keepalive, which pings in time (the broker waits one and a
    /// half) and leaves an idle pager 4 wakeups a minute; else the next attempt. Counted from the
    /// last service, not from `now`: a deadline always 10 ms after now would never be due.
    package func nextDeadline(after now: Timestamp, lookupPending: Bool) -> Timestamp? {
        let last = servicedAt ?? now
        if lookupPending { return last + .milliseconds(10) }
        switch state {
        case .connected: return last + max(.milliseconds(1000), TimeSpan(nanoseconds: keepalive.nanoseconds / 4))
        case .connecting: return last + .milliseconds(1000)
        case .lookingUp, .waiting: return retryAt
        }
    }

    private mutating func wait(_ reason: String, _ failure: MQTTFailure, at now: Timestamp) -> Step? {
        // Before the broker answered: the next address the name has, at once.
        if state != .connected, !untried.isEmpty {
            state = .connecting
            return .connect(untried.removeFirst())
        }
        if state == .connected, let since = connectedAt {
            if now - since >= Self.holdingTime {
                backoff = .milliseconds(1000)
                shortLivedConnections = 0
            } else {
                shortLivedConnections += 1
            }
        }
        connectedAt = nil
        lastFailure = failure
        state = .waiting(reason: reason, retryIn: backoff)
        retryAt = now + backoff
        backoff = min(backoff + backoff, Self.maximumBackoff)
        return nil
    }
}
