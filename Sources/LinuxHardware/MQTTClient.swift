import CMosquitto
import CrownPagerLookup
import CrownVocabulary
import Glibc

/// One message from the broker, as the shell hands it on.
package struct MQTTMessage: Hashable, Sendable {
    /// The topic it was published on.
    package var topic: String
    /// Its bytes, unchecked: the shell decides what they mean.
    package var payload: [UInt8]
    /// Whether the broker kept it (it came with the subscription, not as news).
    package var retained: Bool

    /// A message on `topic`.
    package init(topic: String, payload: [UInt8], retained: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.retained = retained
    }
}

/// What became of the connection, for the shell's one log line per change.
package enum MQTTConnectionState: Hashable, Sendable, CustomStringConvertible {
    /// Looking up the broker's name.
    case lookingUp
    /// The TCP connection and MQTT's CONNECT are under way.
    case connecting
    /// The broker accepted the connection.
    case connected
    /// No connection: why, and when the next attempt comes.
    case waiting(reason: String, retryIn: TimeSpan)

    /// The state in a few words, for `crownpager status` and the journal.
    package var description: String {
        switch self {
        case .lookingUp: return "looking up the broker"
        case .connecting: return "connecting"
        case .connected: return "connected"
        case .waiting(let reason, let retryIn):
            return "disconnected (\(reason)); retrying in \(retryIn.milliseconds / 1000) s"
        }
    }
}

/// What the client needs to reach a broker.
package struct MQTTClientOptions: Hashable, Sendable {
    /// The broker's name or numeric address.
    package var host: String
    /// Its TCP port.
    package var port: Int = 1883
    /// MQTT's keep-alive: the broker drops a client silent this long and a half.
    package var keepalive: TimeSpan = .milliseconds(60_000)
    /// The client id the broker knows this pager by.
    package var clientID: String
    /// The user name, if the broker asks for one.
    package var username: String?
    /// Its password, read from its file by the shell.
    package var password: String?
    /// TLS, with this CA file (nil: the system's CAs in /etc/ssl/certs).
    package var tls: Bool = false
    /// The CA file that signed the broker's certificate.
    package var cafile: String?
    /// The message the broker publishes when this client goes silent: its topic and payload, retained.
    package var will: MQTTMessage?

    /// Options for `host`, known to the broker as `clientID`.
    package init(host: String, clientID: String) {
        self.host = host
        self.clientID = clientID
    }
}

/// Why the client could not be made.
package struct MQTTClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed, with the fix.
    package var description: String
}

/// An MQTT client on libmosquitto that never blocks the run loop.
///
/// It uses libmosquitto's external-loop functions, not its thread: the loop polls `descriptor`
/// with its other inputs, calls `service(readable:at:)` when it is readable, when `wantsWrite`,
/// or at `nextDeadline`, and takes the messages and state changes it returns. Everything stays on
/// the loop's thread, so a message is an engine input in the same turn as a detent, in order.
///
/// The connection is `mosquitto_connect_bind_async`'s, given a numeric address: a name is first
/// looked up by glibc's getaddrinfo_a(3), whose helper does the waiting while the loop asks
/// whether it is done. (libmosquitto's own connect calls getaddrinfo(3), which would block for
/// as long as the resolver takes.) Lost connections are tried again after 1 s, doubling up to 60 s.
package final class MQTTClient {
    /// What the client was made with.
    package let options: MQTTClientOptions
    /// The connection's state now.
    package private(set) var state: MQTTConnectionState = .waiting(reason: "not started", retryIn: .zero)
    private let handle: OpaquePointer
    private let inbox = MQTTInbox()
    private var subscriptions: [String] = []
    private var lookup: OpaquePointer?
    private var retryAt: Timestamp?
    private var connectStartedAt: Timestamp?
    private var backoff = TimeSpan.milliseconds(1000)
    private var servicedAt = Timestamp(nanoseconds: 0)
    /// The longest wait between attempts.
    package static let maximumBackoff = TimeSpan.milliseconds(60_000)
    /// How long a connection may take to be accepted before it is dropped and tried again.
    package static let connectTimeout = TimeSpan.milliseconds(10_000)

    /// A client for `options`; it connects at the first `service(readable:at:)`.
    package init(_ options: MQTTClientOptions) throws(MQTTClientError) {
        _ = mosquittoLibrary
        self.options = options
        guard let made = mosquitto_new(options.clientID, true, nil) else {
            throw MQTTClientError(description: "libmosquitto could not make a client (out of memory?)")
        }
        handle = made
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(inbox).toOpaque())
        mosquitto_connect_callback_set(handle) { _, user, code in
            guard let user else { return }
            Unmanaged<MQTTInbox>.fromOpaque(user).takeUnretainedValue().connackCode = Int(code)
        }
        mosquitto_message_callback_set(handle) { _, user, message in
            guard let user, let message, let topic = message.pointee.topic else { return }
            let count = Int(message.pointee.payloadlen)
            let payload =
                message.pointee.payload.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
            Unmanaged<MQTTInbox>.fromOpaque(user).takeUnretainedValue().messages.append(
                MQTTMessage(topic: String(cString: topic), payload: payload, retained: message.pointee.retain))
        }
        do throws(MQTTClientError) { try configure() } catch {
            mosquitto_destroy(handle)
            throw error
        }
        retryAt = Timestamp(nanoseconds: 0)
    }

    deinit {
        mosquitto_destroy(handle)
        if let lookup { crownpager_lookup_free(lookup) }
    }

    private func configure() throws(MQTTClientError) {
        if let username = options.username {
            try check(mosquitto_username_pw_set(handle, username, options.password), "the user name and password")
        }
        if let will = options.will {
            let code = will.payload.withUnsafeBytes {
                mosquitto_will_set(handle, will.topic, Int32($0.count), $0.baseAddress, 1, true)
            }
            try check(code, "the last will on \(will.topic)")
        }
        if options.tls {
            let capath = options.cafile == nil ? "/etc/ssl/certs" : nil
            try check(mosquitto_tls_set(handle, options.cafile, capath, nil, nil, nil), "TLS")
        }
    }

    private func check(_ code: Int32, _ what: String) throws(MQTTClientError) {
        guard code != MOSQ_ERR_SUCCESS.rawValue else { return }
        throw MQTTClientError(description: "libmosquitto refused \(what): \(Self.sentence(code))")
    }

    /// The descriptor to poll for reading; nil while there is no connection. A connection given
    /// up is no longer polled, though libmosquitto closes its socket only at the next connect.
    package var descriptor: Int32? {
        guard state == .connecting || state == .connected else { return nil }
        let socket = mosquitto_socket(handle)
        return socket >= 0 ? socket : nil
    }

    /// Whether bytes wait to go out: the loop calls `service` again soon (see `nextDeadline`).
    package var wantsWrite: Bool { descriptor != nil && mosquitto_want_write(handle) }

    /// When `service` must run next without input: a retry, a lookup to look at, keep-alive,
    /// bytes waiting to be written. poll(2) watches only for reading, so writes are tried every 10 ms.
    package func nextDeadline(after now: Timestamp) -> Timestamp? {
        // From the last service, not from `now`: a deadline that moves with the clock is never due,
        // and a silent socket would then never be serviced (no keep-alive, no connect timeout).
        if lookup != nil || wantsWrite { return max(servicedAt + .milliseconds(10), now) }
        if descriptor != nil { return servicedAt + .milliseconds(1000) }
        return retryAt
    }

    /// Subscribes to `topic` now if connected, and again on every connection.
    package func subscribe(_ topic: String) {
        guard !subscriptions.contains(topic) else { return }
        subscriptions.append(topic)
        if state == .connected { _ = mosquitto_subscribe(handle, nil, topic, 1) }
    }

    /// Publishes `payload` on `topic` (QoS 1) if connected; false when it could not be queued.
    @discardableResult
    package func publish(_ topic: String, _ payload: [UInt8], retain: Bool) -> Bool {
        guard state == .connected else { return false }
        let code = payload.withUnsafeBytes {
            mosquitto_publish(handle, nil, topic, Int32($0.count), $0.baseAddress, 1, retain)
        }
        return code == MOSQ_ERR_SUCCESS.rawValue
    }

    /// Publishes `text` as UTF-8.
    @discardableResult
    package func publish(_ topic: String, _ text: String, retain: Bool) -> Bool {
        publish(topic, Array(text.utf8), retain: retain)
    }

    /// Reads (when `readable`), writes what waits, keeps the connection alive, connects or retries
    /// when due. Returns the messages that came, and the new state when it changed.
    package func service(readable: Bool, at now: Timestamp) -> (messages: [MQTTMessage], changed: MQTTConnectionState?)
    {
        let before = state
        servicedAt = now
        if state == .connecting || state == .connected, descriptor == nil {
            drop("the connection closed", at: now)
        } else if descriptor != nil {
            var code = MOSQ_ERR_SUCCESS.rawValue
            if readable { code = mosquitto_loop_read(handle, 1) }
            if code == MOSQ_ERR_SUCCESS.rawValue, mosquitto_want_write(handle) {
                code = mosquitto_loop_write(handle, 1)
            }
            if code == MOSQ_ERR_SUCCESS.rawValue { code = mosquitto_loop_misc(handle) }
            // A refusal comes as a CONNACK and then an error of the read: the CONNACK says why.
            if code != MOSQ_ERR_SUCCESS.rawValue, inbox.connackCode.map({ $0 == 0 }) ?? true {
                drop(Self.sentence(code), at: now)
            } else {
                takeConnack(at: now)
            }
            if state == .connecting, let started = connectStartedAt, now - started >= Self.connectTimeout {
                drop("the broker did not answer within \(Self.connectTimeout.milliseconds / 1000) s", at: now)
            }
        }
        if let lookup { finishLookup(lookup, at: now) }
        // mosquitto_connect_bind_async closes the socket of the connection given up.
        if let due = retryAt, due <= now, lookup == nil { begin(at: now) }
        let messages = inbox.messages
        inbox.messages.removeAll(keepingCapacity: true)
        return (messages, state == before ? nil : state)
    }

    /// Publishes `message` (retained), then disconnects cleanly: the broker does not send the will.
    package func disconnect(saying message: MQTTMessage?) {
        guard state == .connected else { return }
        if let message { publish(message.topic, message.payload, retain: message.retained) }
        // The last publish goes out before the DISCONNECT: a few writes, bounded.
        for _ in 0..<8 where mosquitto_want_write(handle) {
            guard mosquitto_loop_write(handle, 1) == MOSQ_ERR_SUCCESS.rawValue else { break }
        }
        _ = mosquitto_disconnect(handle)
        _ = mosquitto_loop_write(handle, 1)
        state = .waiting(reason: "disconnected", retryIn: .zero)
        retryAt = nil
    }

    private func begin(at now: Timestamp) {
        retryAt = nil
        if Self.isNumeric(options.host) {
            connect(to: options.host, at: now)
            return
        }
        guard let started = crownpager_lookup_start(options.host) else {
            wait("the name \(options.host) could not be looked up (too long?)", at: now)
            return
        }
        lookup = started
        state = .lookingUp
    }

    private func finishLookup(_ pending: OpaquePointer, at now: Timestamp) {
        let status = crownpager_lookup_status(pending)
        if status == crownpager_lookup_in_progress() { return }
        defer {
            crownpager_lookup_free(pending)
            lookup = nil
        }
        var buffer = [CChar](repeating: 0, count: 64)
        guard status == 0, crownpager_lookup_address(pending, &buffer, buffer.count) == 0 else {
            let reason = String(cString: crownpager_lookup_error(status == 0 ? EAI_NONAME : status))
            wait("\(options.host) was not found: \(reason)", at: now)
            return
        }
        let address = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // TLS checks the certificate against the host given to connect: the name, not the address
        // (libmosquitto looks it up again, in the loop: normally quick, as the name was just found).
        connect(to: options.tls ? options.host : address, at: now)
    }

    private func connect(to address: String, at now: Timestamp) {
        inbox.connackCode = nil
        let seconds = Int32(clamping: max(5, options.keepalive.nanoseconds / 1_000_000_000))
        let code = mosquitto_connect_bind_async(handle, address, Int32(options.port), seconds, nil)
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            wait("cannot connect to \(address):\(options.port): \(Self.sentence(code))", at: now)
            return
        }
        state = .connecting
        connectStartedAt = now
    }

    private func takeConnack(at now: Timestamp) {
        guard let code = inbox.connackCode else { return }
        inbox.connackCode = nil
        guard code == 0 else {
            let reason = String(cString: mosquitto_connack_string(Int32(code)))
            drop("the broker refused the connection: \(reason)", at: now)
            return
        }
        state = .connected
        backoff = .milliseconds(1000)
        for topic in subscriptions { _ = mosquitto_subscribe(handle, nil, topic, 1) }
    }

    private func drop(_ reason: String, at now: Timestamp) {
        _ = mosquitto_disconnect(handle)
        wait(reason, at: now)
    }

    private func wait(_ reason: String, at now: Timestamp) {
        state = .waiting(reason: reason, retryIn: backoff)
        retryAt = now + backoff
        backoff = min(backoff + backoff, Self.maximumBackoff)
    }

    /// Whether `host` is an IPv4 or IPv6 address, which needs no lookup.
    static func isNumeric(_ host: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
    }

    /// libmosquitto's words for an error code; for an error of the system, errno's.
    static func sentence(_ code: Int32) -> String {
        if code == MOSQ_ERR_ERRNO.rawValue { return Errno(rawValue: Glibc.errno).sentence }
        return String(cString: mosquitto_strerror(code))
    }
}

/// Where libmosquitto's callbacks leave what they were told, for `service` to take.
private final class MQTTInbox {
    var messages: [MQTTMessage] = []
    var connackCode: Int?
}

/// mosquitto_lib_init, once, before the first client (a global's initialiser runs once).
private let mosquittoLibrary: Bool = {
    _ = mosquitto_lib_init()
    return true
}()
