import CrownPagerMicroHTTPD
import CrownVocabulary
import Glibc

/// Why the live mirror's HTTP server could not start: the library missing (a package to install)
/// or the address refused (a setting to change), each with the fix.
package enum HTTPServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// libmicrohttpd could not be loaded: dlerror()'s `reason`, and the CROWNPAGER_LIBMICROHTTPD
    /// value tried instead of the installed library, if one was.
    case libraryMissing(reason: String, override: String?)
    /// The socket could not listen on `endpoint` (`127.0.0.1:8080`) for `errno`.
    case listen(endpoint: String, errno: Errno)

    package var description: String {
        switch self {
        case .libraryMissing(let reason, let chosen?):
            return "libmicrohttpd could not be loaded from CROWNPAGER_LIBMICROHTTPD=\(chosen) (\(reason)): "
                + "point it at libmicrohttpd.so.12, or unset it to use the installed one"
        case .libraryMissing(let reason, nil):
            return "the live mirror needs GNU libmicrohttpd, which could not be loaded (\(reason)): "
                + "sudo apt install libmicrohttpd12 (libmicrohttpd12t64 on Debian 13), or remove [web] listen"
        case .listen(let endpoint, let errno):
            let fix: String
            switch errno.rawValue {
            case EADDRINUSE: fix = "another program listens there: choose another port in [web] listen"
            case EACCES: fix = "ports below 1024 need privileges the service does not have: choose 1024 or above"
            case EADDRNOTAVAIL: fix = "no interface of this machine has that address: use 127.0.0.1 or one of its own"
            case EPERM:
                fix =
                    "the service may not bind this port (its SocketBindAllow=): put the port of [web] listen in "
                    + "the drop-in (Hardware/crownpager-web.conf.example), or listen on the port it allows"
            default: fix = "check [web] listen"
            }
            return "the live mirror could not listen on \(endpoint): \(errno.sentence); \(fix)"
        }
    }
}

/// One request to the HTTP server, answered during the server's `run()` by its handler.
package struct HTTPRequest {
    /// The method as sent: `GET`, `HEAD`, `POST`, ...
    package let method: String
    /// The path, decoded, without the query string.
    package let path: String
    fileprivate let handle: OpaquePointer

    /// The header `name` (case-insensitive), as libmicrohttpd read it; nil when absent.
    package func header(_ name: String) -> String? {
        crownpager_httpd_header(handle, name).map { String(cString: $0) }
    }

    /// The query-string argument `name`, decoded; nil when absent.
    package func argument(_ name: String) -> String? {
        crownpager_httpd_argument(handle, name).map { String(cString: $0) }
    }

    /// Answers with `status` and `body`, plus one more header if given. False when the library refused.
    @discardableResult
    package func respond(
        status: Int, contentType: String, body: [UInt8], header: (name: String, value: String)? = nil
    ) -> Bool {
        body.withUnsafeBytes {
            crownpager_httpd_respond(
                handle, UInt32(status), contentType, $0.baseAddress, $0.count, header?.name, header?.value) == 0
        }
    }

    /// Answers 200 with a stream of unknown length, read as `stream` through the server's reader.
    @discardableResult
    package func stream(_ stream: UInt64, contentType: String) -> Bool {
        crownpager_httpd_stream(handle, stream, contentType) == 0
    }
}

/// What a stream's reader gives: bytes to send now, nothing yet (the stream sleeps until
/// `HTTPServer.wake()`), or its end.
package enum HTTPStreamRead: Hashable, Sendable {
    case bytes([UInt8])
    case nothing
    case end
}

/// An HTTP server on GNU libmicrohttpd (loaded at run time) in its external mode: one descriptor
/// to poll, a timeout to sleep no longer than, `run()` when either comes. It never blocks.
///
/// Requests are answered by `handler` inside `run()`; streams are read by `reader`, which may say
/// it has nothing: the stream then sleeps, its socket out of the poll set, until `wake()`.
package final class HTTPServer {
    private var server: OpaquePointer?
    private let handler: (HTTPRequest) -> Void
    private let reader: (UInt64, Int) -> HTTPStreamRead
    private let closed: (UInt64) -> Void
    /// The descriptor to poll for reading.
    package private(set) var descriptor: Int32 = -1
    /// The library's version, e.g. `0.9.75`.
    package let libraryVersion: String

    /// Listens on `endpoint`'s `address` and `port` (numeric); at most `connections` at once, each
    /// closed after `idleSeconds` without traffic (not while its stream sleeps), with `headBytes`
    /// for a request's head (a longer head is answered 431). Throws when the library is missing
    /// or the address refused.
    package init(
        address: String, port: Int, connections: Int, idleSeconds: Int, headBytes: Int,
        handler: @escaping (HTTPRequest) -> Void, reader: @escaping (UInt64, Int) -> HTTPStreamRead,
        closed: @escaping (UInt64) -> Void
    ) throws(HTTPServerError) {
        let endpoint = address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
        if crownpager_httpd_load() != 0 {
            throw .libraryMissing(
                reason: crownpager_httpd_load_error().map { String(cString: $0) } ?? "unknown error",
                override: crownpager_httpd_library_override().map { String(cString: $0) })
        }
        self.handler = handler
        self.reader = reader
        self.closed = closed
        libraryVersion = crownpager_httpd_version().map { String(cString: $0) } ?? "unknown"
        // The context is this object, unretained: the server stops in deinit, before it goes.
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard
            let started = crownpager_httpd_start(
                address, Int32(port), UInt32(connections), UInt32(idleSeconds), headBytes, context,
                { context, request, method, path in
                    guard let context, let request, let method, let path else { return }
                    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
                    server.handler(
                        HTTPRequest(method: String(cString: method), path: String(cString: path), handle: request))
                },
                { context, stream, buffer, capacity in
                    guard let context, let buffer else { return -1 }
                    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
                    switch server.reader(stream, capacity) {
                    case .end: return -1
                    case .nothing: return 0
                    case .bytes(let bytes):
                        let count = min(bytes.count, capacity)
                        bytes.withUnsafeBytes { source in
                            guard let base = source.baseAddress else { return }
                            memcpy(buffer, base, count)
                        }
                        return count
                    }
                },
                { context, stream in
                    guard let context else { return }
                    Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().closed(stream)
                })
        else {
            throw .listen(endpoint: endpoint, errno: Errno(rawValue: errno))
        }
        server = started
        descriptor = crownpager_httpd_descriptor(started)
    }

    deinit { stop() }

    /// When the server must run again without input (a connection's timeout), from `now`; nil: only on input.
    package func nextDeadline(after now: Timestamp) -> Timestamp? {
        guard let server else { return nil }
        let milliseconds = crownpager_httpd_timeout(server)
        return milliseconds < 0 ? nil : now + .milliseconds(milliseconds)
    }

    /// Accepts, reads, answers, writes and closes what is ready. Never blocks.
    package func run() {
        guard let server else { return }
        _ = crownpager_httpd_run(server)
    }

    /// Wakes every sleeping stream: its reader is asked again at the next `run()`.
    package func wake() {
        guard let server else { return }
        crownpager_httpd_wake(server)
    }

    /// Ends every connection and closes the socket; the streams' `closed` is called for each.
    package func stop() {
        guard let server else { return }
        self.server = nil
        crownpager_httpd_stop(server)
    }
}
