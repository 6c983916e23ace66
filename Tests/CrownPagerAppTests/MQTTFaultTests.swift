import Foundation
import Glibc
import TestSupport
import Testing

/// `crownpager run` against brokers that fail: TLS with a test CA (the right name, a wrong one, a
/// required client certificate, a handshake never answered), wrong credentials, nobody listening;
/// hostile payloads on a page's topic. SIGTERM ends the run within 100 ms in every case.
@Suite(.tags(.endToEnd), .serialized) struct MQTTFaultTests {
    typealias Pager = MQTTEndToEndTests.Pager

    /// The end-to-end pages with `[mqtt]` on `host`:`port`, plus the `extra` lines of `[mqtt]`.
    static func configuration(host: String, port: Int, _ extra: String = "") -> String {
        MQTTEndToEndTests.configuration(port: port).replacingOccurrences(
            of: "host = \"127.0.0.1\"\n", with: "host = \"\(host)\"\n\(extra)")
    }

    /// `[mqtt]` lines for TLS checked against `authority`.
    static func tls(_ authority: TestCertificateAuthority, client: Bool = false) -> String {
        let (certificate, key) = authority.files("client")
        return "tls = true\ncafile = \"\(authority.certificate)\"\n"
            + (client ? "certfile = \"\(certificate)\"\nkeyfile = \"\(key)\"\n" : "")
    }

    /// Waits until the pager's MQTT state contains `text`; then SIGTERM must end it within 100 ms,
    /// cleanly. Returns what it logged.
    static func expectState(_ pager: Pager, containing text: String) throws -> String {
        var last = ""
        let reached = try pager.waitForStatus(deadline: 30) {
            last = $0["mqtt"] as? String ?? last
            return last.contains(text)
        }
        #expect(reached, "the mqtt state is \(last)")
        // The loop still pages while the broker fails.
        #expect(try runCrownPager(["show", "2", "--socket", pager.socket]).status == 0)
        #expect(try pager.status()["page"] as? Int == 2)
        return pager.terminateWithin100Milliseconds()
    }

    /// `crownpager doctor mqtt` with the pager's configuration: its status and standard output.
    static func doctor(_ configuration: String, seconds: Int = 3) throws -> (status: Int32, output: String) {
        let scratch = try ScratchDirectory()
        let path = scratch.path + "/crownpager.toml"
        try configuration.write(toFile: path, atomically: true, encoding: .utf8)
        let run = try runCrownPager(["doctor", "mqtt", "--config", path, "--timeout", "\(seconds)"])
        return (run.status, run.standardOutput + run.standardError)
    }

    @Test func tlsToTheRightNameConnectsAndAPageFollows() throws {
        let scratch = try ScratchDirectory()
        let authority = try TestCertificateAuthority(in: scratch.path)
        let (certificate, key) = authority.files("server")
        let broker = try MosquittoBroker(
            tls: .init(certificate: certificate, key: key, authority: authority.certificate))
        let tlsPort = try #require(broker.tlsPort)
        // A name, looked up without blocking, then checked against the certificate's by OpenSSL.
        let pager = try Pager(configuration: Self.configuration(host: "localhost", port: tlsPort, Self.tls(authority)))
        defer { if pager.process.isRunning { pager.process.terminate() } }
        #expect(try pager.waitForStatus { $0["mqtt"] as? String == "connected" })
        try broker.publish("home/kitchen", "21 C")
        let glass = MQTTEndToEndTests.glass(.output(lines: ["21 C"], status: nil), onPage: 0)
        #expect(try pager.knob.bus.waitForGlass(glass))
        let messages = try Self.expectState(pager, containing: "connected")
        #expect(messages.contains("crownpager: mqtt: connected"), "\(messages)")
        // An address, checked against the certificate's addresses.
        let doctor = try Self.doctor(Self.configuration(host: "127.0.0.1", port: tlsPort, Self.tls(authority)))
        #expect(doctor.status == 0, "\(doctor.output)")
    }

    @Test func tlsToAWrongNameIsRefusedAndNamed() throws {
        let scratch = try ScratchDirectory()
        let authority = try TestCertificateAuthority(in: scratch.path)
        let (certificate, key) = authority.files("wrong")
        let broker = try MosquittoBroker(
            tls: .init(certificate: certificate, key: key, authority: authority.certificate))
        let tlsPort = try #require(broker.tlsPort)
        let pager = try Pager(configuration: Self.configuration(host: "127.0.0.1", port: tlsPort, Self.tls(authority)))
        defer { if pager.process.isRunning { pager.process.terminate() } }
        let wrongAddress =
            "TLS name mismatch: the broker's certificate is not for 127.0.0.1 (certificate verify failed: IP address mismatch)"
        let messages = try Self.expectState(pager, containing: wrongAddress)
        #expect(messages.contains("crownpager: mqtt: disconnected (\(wrongAddress)"), "\(messages)")
        let mismatch =
            "TLS name mismatch: the broker's certificate is not for localhost (certificate verify failed: hostname mismatch)"
        let doctor = try Self.doctor(Self.configuration(host: "localhost", port: tlsPort, Self.tls(authority)))
        #expect(doctor.status == 69)
        #expect(doctor.output.contains("mqtt: failed: TLS name mismatch: \(mismatch)"), "\(doctor.output)")
        #expect(doctor.output.contains("set host to a name the broker's certificate lists"), "\(doctor.output)")
    }

    @Test func aRequiredClientCertificateIsSentWhenConfigured() throws {
        let scratch = try ScratchDirectory()
        let authority = try TestCertificateAuthority(in: scratch.path)
        let (certificate, key) = authority.files("server")
        let broker = try MosquittoBroker(
            tls: .init(certificate: certificate, key: key, authority: authority.certificate, requireCertificate: true))
        let tlsPort = try #require(broker.tlsPort)
        let without = Self.configuration(host: "127.0.0.1", port: tlsPort, Self.tls(authority))
        let pager = try Pager(configuration: without)
        defer { if pager.process.isRunning { pager.process.terminate() } }
        _ = try Self.expectState(pager, containing: "disconnected (")
        let refused = try Self.doctor(without)
        #expect(refused.status == 69)
        #expect(refused.output.contains("mqtt: failed: TLS handshake failed: "), "\(refused.output)")
        #expect(refused.output.contains("set certfile and keyfile"), "\(refused.output)")
        let with = Self.configuration(host: "127.0.0.1", port: tlsPort, Self.tls(authority, client: true))
        let accepted = try Self.doctor(with, seconds: 10)
        #expect(accepted.status == 0, "\(accepted.output)")
    }

    @Test func aTLSHandshakeNeverAnsweredLeavesTheLoopResponsive() throws {
        let scratch = try ScratchDirectory()
        let authority = try TestCertificateAuthority(in: scratch.path)
        let silent = try TCPListener()
        let pager = try Pager(
            configuration: Self.configuration(host: "127.0.0.1", port: silent.port, Self.tls(authority)))
        defer { if pager.process.isRunning { pager.process.terminate() } }
        _ = try Self.expectState(pager, containing: "connecting")
    }

    @Test func wrongCredentialsAndNobodyListeningAreNamed() throws {
        let broker = try MosquittoBroker(user: "pager", password: "right")
        let secret = broker.scratch.path + "/mqtt-password"
        try "wrong\n".write(toFile: secret, atomically: true, encoding: .utf8)
        #expect(chmod(secret, 0o600) == 0)
        let credentials = "username = \"pager\"\npassword_file = \"\(secret)\"\n"
        let text = Self.configuration(host: "127.0.0.1", port: broker.port, credentials)
        let pager = try Pager(configuration: text)
        defer { if pager.process.isRunning { pager.process.terminate() } }
        _ = try Self.expectState(
            pager, containing: "the broker refused the connection: Connection Refused: not authorised.")
        let doctor = try Self.doctor(text)
        #expect(doctor.output.contains("mqtt: failed: bad credentials: the broker refused"), "\(doctor.output)")

        let nobody = Self.configuration(host: "127.0.0.1", port: try freeTCPPort())
        let alone = try Pager(configuration: nobody)
        defer { if alone.process.isRunning { alone.process.terminate() } }
        _ = try Self.expectState(alone, containing: "Connection refused")
        let refused = try Self.doctor(nobody)
        #expect(refused.status == 69)
        #expect(refused.output.contains("mqtt: failed: connection refused: "), "\(refused.output)")
        // A name no resolver knows (.invalid is reserved for that).
        let unknown = try Self.doctor(Self.configuration(host: "broker.invalid", port: 1883))
        #expect(unknown.output.contains("mqtt: failed: unreachable: broker.invalid was not found"), "\(unknown.output)")
    }

    @Test func aMegabytePayloadAndDeepJSONAreMarkedAndLoggedOnce() throws {
        let broker = try MosquittoBroker()
        let pager = try Pager(port: broker.port)
        defer { if pager.process.isRunning { pager.process.terminate() } }
        try broker.publish("home/kitchen", "20 C", retain: true)
        #expect(
            try pager.knob.bus.waitForGlass(MQTTEndToEndTests.glass(.output(lines: ["20 C"], status: nil), onPage: 0)))
        try broker.publish("home/kitchen", [UInt8](repeating: 0x41, count: 1 << 20))
        let large = MQTTEndToEndTests.glass(.output(lines: ["20 C"], status: "too large"), onPage: 0)
        #expect(try pager.knob.bus.waitForGlass(large))
        try broker.publish("home/outside", #"{"sensor": {"temperature": 7}}"#)
        let deep = String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
        try broker.publish("home/outside", deep)
        #expect(try runCrownPager(["show", "3", "--socket", pager.socket]).status == 0)
        let marked = MQTTEndToEndTests.glass(.output(lines: ["7"], status: "bad JSON"), onPage: 2, after: [1, 1])
        #expect(try pager.knob.bus.waitForGlass(marked))
        let messages = try Self.expectState(pager, containing: "connected")
        let tooLarge = "home/kitchen (page 1): ignored: its 1048576 bytes are more than 65536"
        #expect(messages.components(separatedBy: tooLarge).count == 2, "\(messages)")
        #expect(
            messages.components(separatedBy: "home/outside (page 3): ignored: it is not JSON").count == 2, "\(messages)"
        )
    }
}
