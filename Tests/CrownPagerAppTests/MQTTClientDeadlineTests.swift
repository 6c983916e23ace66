import CrownVocabulary
import Foundation
import Glibc
import LinuxSystem
import TestSupport
import Testing

/// The client's next deadline runs from its last service, not from the time it is asked at: a
/// connection whose socket stays silent is still serviced (keep-alive, the connect timeout).
@Suite struct MQTTClientDeadlineTests {
    @Test func aSilentConnectionIsDueAfterItsLastServiceAndTimesOut() throws {
        let silent = try TCPListener()
        var options = MQTTClientOptions(host: "127.0.0.1", clientID: "crownpager-deadline-test")
        options.port = silent.port
        let client = try MQTTClient(options)
        let start = Timestamp.milliseconds(5000)
        _ = client.service(readable: false, at: start)
        #expect(client.state == .connecting)
        // Asked 1.5 s on, nothing having been read, the client is due.
        let later = start + .milliseconds(1500)
        #expect(client.nextDeadline(after: later).map { $0 <= later } == true)
        // Serviced when due, it gives the connection up at the connect timeout.
        _ = client.service(readable: false, at: start + MQTTClient.connectTimeout)
        guard case .waiting(let reason, _) = client.state else {
            Issue.record("still \(client.state) after the connect timeout")
            return
        }
        #expect(reason.contains("did not answer within 10 s"), "\(reason)")
    }

    @Test func aConnectionMadeIsLookedAtEachQuarterKeepaliveNotEachSecond() throws {
        let broker = try MosquittoBroker()
        var options = MQTTClientOptions(host: "127.0.0.1", clientID: "crownpager-keepalive-test")
        options.port = broker.port
        options.keepalive = .milliseconds(60_000)
        let client = try MQTTClient(options)
        // Driven as the run loop drives it, on its own clock, until the broker accepts.
        let end = Date().addingTimeInterval(10)
        var now = Timestamp.milliseconds(1000)
        var readable = false
        while client.state != .connected, Date() < end {
            _ = client.service(readable: readable, at: now)
            var ready = pollfd(fd: client.descriptor ?? -1, events: Int16(POLLIN), revents: 0)
            readable = poll(&ready, 1, 10) > 0
            now = now + .milliseconds(10)
        }
        #expect(client.state == .connected)
        _ = client.service(readable: false, at: now)
        // Nothing to write: the next look is 15 s on, a quarter of the keepalive (4 wakeups a minute).
        #expect(!client.wantsWrite)
        #expect(client.nextDeadline(after: now) == now + .milliseconds(15_000))
    }
}
