import Foundation
import Glibc
import TestSupport
import Testing

/// Debian's mosquitto (`setup.sh --test` installs it) on 127.0.0.1 at a free port, with its
/// configuration in a scratch folder; and mosquitto_pub and mosquitto_sub to talk to it.
final class MosquittoBroker {
    let scratch: ScratchDirectory
    let port: Int
    /// The TLS listener's port, when it has one (`port` stays plain, for mosquitto_pub and mosquitto_sub).
    let tlsPort: Int?
    private var process: Process?

    /// A TLS listener: the server certificate and key it shows, the CA a client certificate must
    /// be signed by, and whether it requires one.
    struct TLS {
        var certificate: String
        var key: String
        var authority: String
        var requireCertificate = false
    }

    /// A broker on a free port, started and accepting connections: anyone, or only `user` with
    /// `password`; with a TLS listener on a second port when `tls` is given.
    init(user: String? = nil, password: String = "", tls: TLS? = nil) throws {
        scratch = try ScratchDirectory()
        port = try freeTCPPort()
        tlsPort = try tls.map { _ in try freeTCPPort() }
        var configuration = "listener \(port) 127.0.0.1\npersistence false\n"
        // Started as root, mosquitto would become its own user before it reads the password file
        // and certificates, and fail where that user cannot enter the scratch folder (a private
        // TMPDIR or umask 077, as on a CI machine: "Unable to open pwfile", exit 13). `user root`
        // keeps the broker the test's own; it has no effect when the tests run as another user.
        if geteuid() == 0 { configuration += "user root\n" }
        if let tls, let tlsPort {
            configuration += "listener \(tlsPort) 127.0.0.1\ncertfile \(tls.certificate)\nkeyfile \(tls.key)\n"
            configuration += "cafile \(tls.authority)\nrequire_certificate \(tls.requireCertificate)\n"
        }
        if let user {
            let made = try runProgram(
                "/usr/bin/mosquitto_passwd", ["-b", "-c", scratch.path + "/passwd", user, password])
            #expect(made.status == 0, "\(made.standardError)")
            configuration += "allow_anonymous false\npassword_file \(scratch.path)/passwd\n"
        } else {
            configuration += "allow_anonymous true\n"
        }
        try configuration.write(toFile: scratch.path + "/mosquitto.conf", atomically: true, encoding: .utf8)
        try start()
    }

    deinit { stop() }

    /// Starts it (again) on the same port; waits, with a deadline, until it accepts connections.
    func start() throws {
        let broker = Process()
        broker.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
        broker.arguments = ["-c", scratch.path + "/mosquitto.conf"]
        // Its log (on standard error unless configured otherwise) is kept, for when it does not start.
        let log = scratch.path + "/mosquitto.log"
        #expect(FileManager.default.createFile(atPath: log, contents: nil))
        broker.standardOutput = FileHandle.nullDevice
        broker.standardError = FileHandle(forWritingAtPath: log)
        try broker.run()
        process = broker
        if waitUntil(seconds: 20, { acceptsConnections(port: port) || !broker.isRunning }), broker.isRunning {
            return
        }
        let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        Issue.record("mosquitto did not listen on port \(port) within 20 s; its log:\n\(said)")
    }

    /// Kills it (as a crash would) and waits until it has gone. SIGKILL: a child of the test
    /// process inherits its signal mask, in which SIGTERM may be blocked (TerminationSignals).
    func stop() {
        guard let broker = process, broker.isRunning else { return }
        kill(broker.processIdentifier, SIGKILL)
        broker.waitUntilExit()
        process = nil
    }

    /// mosquitto_pub: `payload` (bytes) on `topic`, retained when asked.
    func publish(_ topic: String, _ payload: [UInt8], retain: Bool = false) throws {
        let file = scratch.path + "/payload"
        try Data(payload).write(to: URL(fileURLWithPath: file))
        let run = try runProgram(
            "/usr/bin/mosquitto_pub",
            ["-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-f", file, "-q", "1"] + (retain ? ["-r"] : []))
        #expect(run.status == 0, "\(run.standardError)")
    }

    /// `text` on `topic`.
    func publish(_ topic: String, _ text: String, retain: Bool = false) throws {
        try publish(topic, Array(text.utf8), retain: retain)
    }

    /// The retained message on `topic` (empty when none came within `seconds`).
    func retained(_ topic: String, seconds: Double = 5) throws -> String {
        let subscription = try LiveSubscription(self, topic)
        defer { subscription.stop() }
        return subscription.next(seconds: seconds) ?? ""
    }
}

/// Whether something accepts a TCP connection on 127.0.0.1:`port`.
func acceptsConnections(port: Int) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    } == 0
}

/// Runs `path` with `arguments` to its end.
func runProgram(_ path: String, _ arguments: [String]) throws -> (
    status: Int32, standardOutput: String, standardError: String
) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let err = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, out, err)
}

/// mosquitto_sub on a topic, read as messages come: `next` waits, with a deadline, for the next.
final class LiveSubscription {
    let broker: MosquittoBroker
    let topic: String
    /// Published on until it comes back, to know the subscription is in place.
    let probe = "crownpager-test/probe"
    private let process = Process()
    private let output = Pipe()
    private var buffer: [UInt8] = []
    private var messages: [(topic: String, payload: String)] = []

    init(_ broker: MosquittoBroker, _ topic: String) throws {
        self.broker = broker
        self.topic = topic
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        process.arguments = ["-h", "127.0.0.1", "-p", "\(broker.port)", "-v", "-t", topic, "-t", probe]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit { stop() }

    /// Ends mosquitto_sub. Before a pager's run is stopped: a child started meanwhile holds the
    /// run's standard error open too, and reading it to its end would wait for this one.
    func stop() {
        guard process.isRunning else { return }
        // SIGKILL: a child of the test runner may have SIGTERM blocked, as the runner's thread had.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Every message read and not taken yet, the probe's left out.
    func received() -> [(topic: String, payload: String)] { messages.filter { $0.topic != probe } }

    /// The next payload on `topic` within `seconds`; nil when none came.
    func next(seconds: Double) -> String? { next(on: topic, seconds: seconds) }

    /// Publishes on the probe topic until it comes back (or 10 s passed): then the broker sends
    /// this subscriber everything published after.
    func waitUntilSubscribed() throws -> Bool {
        // Each round waits 0.2 s for the probe to come back: no pause between them.
        try waitUntil(seconds: 10, every: 0) {
            try broker.publish(probe, "probe")
            return next(on: probe, seconds: 0.2) != nil
        }
    }

    /// The next payload on `wanted` (one of the topics a wildcard subscription matches) within `seconds`.
    func next(on wanted: String, seconds: Double) -> String? {
        let end = Date().addingTimeInterval(seconds)
        while true {
            if let index = messages.firstIndex(where: { $0.topic == wanted }) {
                return messages.remove(at: index).payload
            }
            let left = end.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var ready = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, Int32(left * 1000) + 1) > 0 else { continue }
            var bytes = [UInt8](repeating: 0, count: 65536)
            let count = read(ready.fd, &bytes, bytes.count)
            guard count > 0 else { return nil }
            buffer += bytes[0..<count]
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
                messages.append((String(parts[0]), parts.count > 1 ? String(parts[1]) : ""))
            }
        }
    }
}

/// The start of a pager's configuration against a broker on `port`: a panel on bus 1 (with
/// `display`'s lines), `[mqtt]` at 127.0.0.1 under `base` (with `mqtt`'s lines).
func brokerConfiguration(port: Int, base: String, display: String = "", mqtt: String = "") -> String {
    """
    [display]
    bus = 1
    \(display)

    [mqtt]
    host = "127.0.0.1"
    port = \(port)
    base_topic = "\(base)"
    \(mqtt)

    [[page]]
    kind = "text"
    title = "Kitchen"
    text = "kitchen"

    """
}

/// Two pages Home Assistant may set: a text and a 0 to 100 gauge, both `source = "push"`.
func pushedPages(text: String, gauge: String) -> String {
    """
    [[page]]
    kind = "text"
    title = "\(text)"
    source = "push"

    [[page]]
    kind = "gauge"
    title = "\(gauge)"
    source = "push"
    min = 0
    max = 100
    """
}
