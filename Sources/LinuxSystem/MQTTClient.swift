import CrownPagerLookup
import CrownPagerMosquitto
import CrownVocabulary
import Glibc

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
/// as long as the resolver takes.) When to connect, retry and give up is `MQTTConnection`'s, a pure
/// state machine this only tells what came of each call.
package final class MQTTClient {
    /// What the client was made with.
    package let options: MQTTClientOptions
    /// The connection's decisions: state, back-off, deadlines.
    package private(set) var connection: MQTTConnection
    /// The connection's state now.
    package var state: MQTTConnectionState { connection.state }
    /// What ended the last attempt that failed; nil before any did.
    package var lastFailure: MQTTFailure? { connection.lastFailure }
    /// How many connections in a row the broker closed within `holdingTime` of accepting them:
    /// what another client with the same id does to this one (the broker closes the older of two
    /// connections with one id). 0 once one has held.
    package var shortLivedConnections: Int { connection.shortLivedConnections }
    private let handle: OpaquePointer
    private let inbox = MQTTInbox()
    private var subscriptions: [String] = []
    private var lookup: OpaquePointer?
    /// The TLS session of the connection under way, held to read its certificate check once it failed.
    private var session: UnsafeMutableRawPointer?
    /// The longest wait between attempts.
    package static let maximumBackoff = MQTTConnection.maximumBackoff
    /// A connection that lasts this long has held (`MQTTConnection.holdingTime`).
    package static let holdingTime = MQTTConnection.holdingTime
    /// How long a connection may take to be accepted before it is dropped and tried again.
    package static let connectTimeout = MQTTConnection.connectTimeout

    /// How long the connection that is up has lasted at `now`; nil while none is.
    package func connectionAge(at now: Timestamp) -> TimeSpan? { connection.connectionAge(at: now) }

    /// A client for `options`; it connects at the first `service(readable:at:)`.
    package init(_ options: MQTTClientOptions) throws(MQTTClientError) {
        try Self.loadLibrary()
        self.options = options
        connection = MQTTConnection(
            host: options.host, hostIsNumeric: Self.isNumeric(options.host), keepalive: options.keepalive)
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
    }

    deinit {
        crownpager_mosquitto_tls_release(session)
        mosquitto_destroy(handle)
        if let lookup { crownpager_lookup_free(lookup) }
    }

    private func configure() throws(MQTTClientError) {
        // Each message goes out as it is written: with Nagle's algorithm, a state published just
        // after another small message (the PUBACK of the command that caused it) waited for the
        // broker's delayed ACK, 40 ms on Linux (Scripts/bench/mqtt-latency.sh: the answers' p50
        // fell by 40 ms with this). The pager sends a few small messages, never a stream.
        try check(mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, 1), "TCP_NODELAY")
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
            // The connection goes to the address the lookup found; the certificate is checked
            // against the name configured, by OpenSSL, as libmosquitto would check it.
            let capath = options.cafile == nil ? "/etc/ssl/certs" : nil
            let failure = crownpager_mosquitto_tls_context(
                handle, options.host, options.cafile, capath, options.certfile, options.keyfile)
            if let failure {
                throw MQTTClientError(description: "TLS cannot be set up: \(String(cString: failure))")
            }
        }
    }

    /// Loads libmosquitto, once per process; a missing library or function is an error with the fix.
    static func loadLibrary() throws(MQTTClientError) {
        guard crownpager_mosquitto_load() != 0 else { return }
        let reason = crownpager_mosquitto_load_error().map { String(cString: $0) } ?? "unknown error"
        if let chosen = crownpager_mosquitto_library_override().map({ String(cString: $0) }) {
            throw MQTTClientError(
                description: "libmosquitto could not be loaded from CROWNPAGER_LIBMOSQUITTO=\(chosen) (\(reason)): "
                    + "point it at libmosquitto.so.1, or unset it to use the installed one",
                libraryMissing: true)
        }
        throw MQTTClientError(
            description: "MQTT needs libmosquitto, which could not be loaded (\(reason)): "
                + "sudo apt install libmosquitto1, or remove [mqtt] host to run without MQTT",
            libraryMissing: true)
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

    /// Whether bytes wait to go out (a publish the socket's buffer did not take whole, a
    /// connection being made, a TLS handshake): the loop then polls `descriptor` for writing too,
    /// and services the client as soon as the kernel can take them.
    package var wantsWrite: Bool { descriptor != nil && mosquitto_want_write(handle) }

    /// When `service` must run next without input: a retry, a lookup to look at, keep-alive.
    /// (Bytes waiting to be written wake poll(2) through `wantsWrite`.) Counted from the last
    /// service, not from `now`: a deadline always 10 ms after now would never be due, and a lookup
    /// would never be looked at again. A connection being made is looked at each second (its
    /// timeout); one made, each quarter `keepalive`, which pings in time (the broker waits a
    /// keepalive and a half) and leaves an idle pager 4 wakeups a minute, not 60.
    package func nextDeadline(after now: Timestamp) -> Timestamp? {
        connection.nextDeadline(after: now, lookupPending: lookup != nil)
    }

    /// Subscribes to `topic` now if connected, and again on every connection. `again` subscribes
    /// once more when it already is: the broker then sends its retained message anew (MQTT 3.1.1,
    /// 3.8.4), as a reload that made the pages afresh needs.
    package func subscribe(_ topic: String, again: Bool = false) {
        if !subscriptions.contains(topic) { subscriptions.append(topic) } else if !again { return }
        if state == .connected { _ = mosquitto_subscribe(handle, nil, topic, 1) }
    }

    /// Stops taking `topic`, now and on later connections.
    package func unsubscribe(_ topic: String) {
        guard let index = subscriptions.firstIndex(of: topic) else { return }
        subscriptions.remove(at: index)
        if state == .connected { _ = mosquitto_unsubscribe(handle, nil, topic) }
    }

    /// Publishes `payload` on `topic` (QoS 1 unless `quality` says otherwise) if connected; false
    /// when it could not be queued.
    @discardableResult
    package func publish(
        _ topic: String, _ payload: [UInt8], retain: Bool, quality: MQTTQualityOfService = .atLeastOnce
    ) -> Bool {
        guard state == .connected else { return false }
        let code = payload.withUnsafeBytes {
            mosquitto_publish(handle, nil, topic, Int32($0.count), $0.baseAddress, quality.rawValue, retain)
        }
        return code == MOSQ_ERR_SUCCESS.rawValue
    }

    /// Publishes `text` as UTF-8.
    @discardableResult
    package func publish(
        _ topic: String, _ text: String, retain: Bool, quality: MQTTQualityOfService = .atLeastOnce
    ) -> Bool {
        publish(topic, Array(text.utf8), retain: retain, quality: quality)
    }

    /// Reads (when `readable`), writes what waits, keeps the connection alive, connects or retries
    /// when due. Returns the messages that came, and the new state when it changed.
    package func service(readable: Bool, at now: Timestamp) -> (messages: [MQTTMessage], changed: MQTTConnectionState?)
    {
        let before = state
        connection.serviced(at: now)
        if state == .connecting || state == .connected, descriptor == nil {
            drop("the connection closed", state == .connected ? .lost : .noAnswer, at: now)
        } else if descriptor != nil {
            var code = MOSQ_ERR_SUCCESS.rawValue
            if readable { code = mosquitto_loop_read(handle, 1) }
            if code == MOSQ_ERR_SUCCESS.rawValue, mosquitto_want_write(handle) {
                code = mosquitto_loop_write(handle, 1)
            }
            if code == MOSQ_ERR_SUCCESS.rawValue { code = mosquitto_loop_misc(handle) }
            // A refusal comes as a CONNACK and then an error of the read: the CONNACK says why.
            if code != MOSQ_ERR_SUCCESS.rawValue, inbox.connackCode.map({ $0 == 0 }) ?? true {
                let error = Glibc.errno
                let failure = MQTTFailure.of(code, error: error, tls: options.tls, connecting: state == .connecting)
                drop(Self.sentence(code), failure, at: now)
            } else {
                takeConnack(at: now)
            }
            if connection.timedOut(at: now) {
                drop(
                    "the broker did not answer within \(Self.connectTimeout.milliseconds / 1000) s", .noAnswer, at: now)
            }
        }
        if let lookup { finishLookup(lookup, at: now) }
        // mosquitto_connect_bind_async closes the socket of the connection given up.
        if lookup == nil, let step = connection.attemptIfDue(at: now) { take(step, at: now) }
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
        connection.disconnected()
    }

    /// Does what the connection asks, and what it asks after that (the next address when one failed).
    private func take(_ first: MQTTConnection.Step, at now: Timestamp) {
        var step: MQTTConnection.Step? = first
        while let next = step {
            switch next {
            case .lookUp:
                step = nil
                if let started = crownpager_lookup_start(options.host) {
                    lookup = started
                } else {
                    connection.lookupFailed("the name \(options.host) could not be looked up (too long?)", at: now)
                }
            case .connect(let address):
                step = connect(to: address, at: now)
            }
        }
    }

    private func finishLookup(_ pending: OpaquePointer, at now: Timestamp) {
        let status = crownpager_lookup_status(pending)
        if status == crownpager_lookup_in_progress() { return }
        defer {
            crownpager_lookup_free(pending)
            lookup = nil
        }
        var buffer = [CChar](repeating: 0, count: 64)
        var found: [String] = []
        while status == 0, found.count < 8,
            crownpager_lookup_address(pending, found.count, &buffer, buffer.count) == 0
        {
            found.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        guard !found.isEmpty else {
            let reason = String(cString: crownpager_lookup_error(status == 0 ? EAI_NONAME : status))
            connection.lookupFailed("\(options.host) was not found: \(reason)", at: now)
            return
        }
        // With TLS too: the certificate is checked against the name (crownpager_mosquitto_tls_context),
        // so libmosquitto, given the address, does not look the name up again with getaddrinfo(3).
        if let step = connection.lookedUp(found, at: now) { take(step, at: now) }
    }

    /// Starts connecting to `address`; what the connection asks next when that could not start.
    private func connect(to address: String, at now: Timestamp) -> MQTTConnection.Step? {
        inbox.connackCode = nil
        let seconds = Int32(clamping: max(5, options.keepalive.nanoseconds / 1_000_000_000))
        let code = mosquitto_connect_bind_async(handle, address, Int32(options.port), seconds, nil)
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            // A broker on this machine can fail the handshake inside the call: the certificate's
            // verdict, kept by the shim, says why (a name it is not for), as a later failure would.
            if options.tls, let tls = tlsReason(code: crownpager_mosquitto_tls_take_verify_error()) {
                return connection.failed(tls.reason, tls.failure, at: now)
            }
            let failure = MQTTFailure.of(code, error: Glibc.errno, tls: options.tls, connecting: true)
            return connection.failed(
                "cannot connect to \(address):\(options.port): \(Self.sentence(code))", failure, at: now)
        }
        connection.connectStarted(at: now)
        if options.tls {
            crownpager_mosquitto_tls_release(session)
            session = crownpager_mosquitto_tls_hold(handle)
        }
        return nil
    }

    private func takeConnack(at now: Timestamp) {
        guard let code = inbox.connackCode else { return }
        inbox.connackCode = nil
        guard code == 0 else {
            // The broker answered: another of its addresses would answer the same.
            let reason = String(cString: mosquitto_connack_string(Int32(code)))
            _ = mosquitto_disconnect(handle)
            connection.refused("the broker refused the connection: \(reason)", .of(connack: code), at: now)
            crownpager_mosquitto_tls_release(session)
            session = nil
            return
        }
        connection.accepted(at: now)
        crownpager_mosquitto_tls_release(session)
        session = nil
        for topic in subscriptions { _ = mosquitto_subscribe(handle, nil, topic, 1) }
    }

    private func drop(_ reason: String, _ failure: MQTTFailure, at now: Timestamp) {
        _ = mosquitto_disconnect(handle)
        let tls = tlsReason()
        if let step = connection.failed(tls?.reason ?? reason, tls?.failure ?? failure, at: now) { take(step, at: now) }
    }

    /// Why the TLS handshake under way failed, when the broker's certificate did not pass: a name
    /// it is not for, or a CA not trusted, with the fix. Nil otherwise.
    private func tlsReason() -> (reason: String, failure: MQTTFailure)? {
        defer {
            crownpager_mosquitto_tls_release(session)
            session = nil
        }
        let held = crownpager_mosquitto_tls_verify_result(session)
        let remembered = crownpager_mosquitto_tls_take_verify_error()
        return tlsReason(code: held != 0 ? held : remembered)
    }

    /// The reason and kind for X509_V_ code `code`, with the fix; nil for 0 (the check passed).
    private func tlsReason(code: Int) -> (reason: String, failure: MQTTFailure)? {
        guard code != 0 else { return nil }
        let words = String(cString: crownpager_mosquitto_tls_verify_string(code))
        if crownpager_mosquitto_tls_is_name_mismatch(code) != 0 {
            let reason =
                "TLS name mismatch: the broker's certificate is not for \(options.host) "
                + "(certificate verify failed: \(words)): set host to a name the certificate lists "
                + "(openssl s_client -connect \(options.host):\(options.port) shows them), or give the broker a certificate for it"
            return (reason, .tlsNameMismatch)
        }
        let reason =
            "TLS: the broker's certificate was not accepted (certificate verify failed: \(words)): "
            + "set cafile to the CA certificate that signed it"
        return (reason, .tlsCertificate)
    }
}

/// Where libmosquitto's callbacks leave what they were told, for `service` to take.
private final class MQTTInbox {
    var messages: [MQTTMessage] = []
    var connackCode: Int?
}
