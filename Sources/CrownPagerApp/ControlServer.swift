import CrownVocabulary
import LinuxSystem
import PagerControl

/// The control socket's connections for the run loop: each polled, read without waiting into a
/// bounded buffer, its lines turned into requests, its answers written back. A client that
/// sends too much is answered `too-long` and closed; one that stalls halfway through a line is
/// closed at its deadline, which the loop's sleep includes; past `maximumConnections` a new
/// client is answered `busy` and closed. Nothing here waits.
package final class ControlServer {
    /// One client.
    final class Client {
        let id: Int
        let connection: ControlConnection
        var buffer = ControlLineBuffer()
        /// When it is closed unless it sends something.
        var expiresAt: Timestamp
        /// It closed its end (or half of it): answered, then closed; no longer polled.
        var finished = false

        init(id: Int, connection: ControlConnection, expiresAt: Timestamp) {
            self.id = id
            self.connection = connection
            self.expiresAt = expiresAt
        }
    }

    /// A request from a client, to carry out and answer with `answer(_:to:)`.
    package struct Request {
        /// The client's id, for the answer.
        package var client: Int
        /// What it asks, or why its line is no request.
        package var request: Result<ControlRequest, ControlRequestError>
    }

    /// The listening socket.
    package let listener: ControlListener
    /// How long a client may keep a connection without sending a byte.
    package var idleTimeout = TimeSpan.milliseconds(2000)
    /// Clients beyond this many are answered `busy`.
    package var maximumConnections = 8
    private var clients: [Client] = []
    private var nextID = 1

    /// Serves the connections of `listener`.
    package init(listener: ControlListener) { self.listener = listener }

    /// The descriptors to poll for reading: the listener's, then each client's.
    package var descriptors: [Int32] {
        // A closed end reads as always readable: a finished client is not polled, or the loop would spin.
        [listener.descriptor.rawValue] + clients.filter { !$0.finished }.map(\.connection.descriptor.rawValue)
    }

    /// When the next stalled client is closed; nil without clients (an idle pager does not wake).
    package var nextDeadline: Timestamp? { clients.map(\.expiresAt).min() }

    /// How many clients are connected.
    package var connectionCount: Int { clients.count }

    /// Accepts and reads what the descriptors in `ready` (some of `descriptors`) have; returns the
    /// requests their whole lines hold, in order. Clients that closed or overflowed are gone after.
    package func serve(ready: Set<Int32>, at now: Timestamp) -> [Request] {
        var requests: [Request] = []
        for client in clients where !client.finished && ready.contains(client.connection.descriptor.rawValue) {
            requests += read(client, at: now)
        }
        if ready.contains(listener.descriptor.rawValue) { acceptAll(at: now) }
        return requests
    }

    /// Closes the clients whose deadline has passed (half a line that never ended, or silence),
    /// and those that closed their end, now that their requests are answered.
    package func expire(at now: Timestamp) {
        clients.removeAll { $0.finished }
        for client in clients where client.expiresAt <= now {
            if client.buffer.holdsPartialLine {
                send(.error(.malformed, "the line did not end within \(idleTimeout.milliseconds) ms"), to: client)
            }
            close(client)
        }
    }

    /// Writes `response` to client `id`, if it is still connected; one that does not take it is closed.
    package func answer(_ response: ControlResponse, to id: Int) {
        guard let client = clients.first(where: { $0.id == id }) else { return }
        send(response, to: client)
    }

    private func read(_ client: Client, at now: Timestamp) -> [Request] {
        var requests: [Request] = []
        // At most a few reads a turn: a client that floods the socket does not hold the loop.
        for _ in 0..<4 {
            let received: ControlConnection.Received
            do throws(ControlSocketError) { received = try client.connection.receive(maximum: 4096) } catch {
                OperatorLog.warning("crownpager: control: \(error)")
                close(client)
                return requests
            }
            switch received {
            case .nothing:
                return requests
            case .closed:
                // Half a line without its end is dropped; whole lines before it are still answered.
                client.finished = true
                return requests
            case .bytes(let bytes):
                client.expiresAt = now + idleTimeout
                for item in client.buffer.append(bytes) {
                    switch item {
                    case .request(let request): requests.append(Request(client: client.id, request: request))
                    case .overflow:
                        send(ControlRequestError.tooLong.response, to: client)
                        close(client)
                        return requests
                    }
                }
            }
        }
        return requests
    }

    private func acceptAll(at now: Timestamp) {
        while true {
            let connection: ControlConnection?
            do throws(ControlSocketError) { connection = try listener.accept() } catch {
                OperatorLog.warning("crownpager: control: \(error)")
                return
            }
            guard let connection else { return }
            // The file's mode (0660, group crownpager) decides who may connect; the kernel's word on
            // who did goes to the journal, and a peer it gives no word on is not served.
            guard let peer = connection.credentials else {
                OperatorLog.warning("crownpager: control: refused a connection whose peer the kernel does not name")
                continue
            }
            OperatorLog.info("crownpager: control: connection from \(peer)")
            let client = Client(id: nextID, connection: connection, expiresAt: now + idleTimeout)
            nextID += 1
            guard clients.count < maximumConnections else {
                _ = connection.sendWithoutWaiting(
                    Array(
                        ControlResponse.error(.busy, "\(maximumConnections) clients are connected: try again").line.utf8
                    ))
                continue
            }
            clients.append(client)
        }
    }

    private func send(_ response: ControlResponse, to client: Client) {
        if !client.connection.sendWithoutWaiting(Array(response.line.utf8)) { close(client) }
    }

    private func close(_ client: Client) {
        clients.removeAll { $0 === client }
    }
}
