import CrownVocabulary
import LinuxHardware
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
}
