import CrownPagerMosquitto
import Glibc

/// What ended an attempt to connect, in the words `crownpager doctor mqtt` leads with, and its fix.
package enum MQTTFailure: String, Hashable, Sendable, CustomStringConvertible {
    /// Nothing accepts connections at the address and port (ECONNREFUSED).
    case refused = "connection refused"
    /// The broker refused the user name or password (CONNACK 4 or 5).
    case badCredentials = "bad credentials"
    /// The broker refused the connection for another reason (CONNACK 1-3).
    case brokerRefused = "refused by the broker"
    /// The broker's certificate is not for the host name (or address) configured.
    case tlsNameMismatch = "TLS name mismatch"
    /// The broker's certificate is not signed by a CA trusted (cafile), or expired.
    case tlsCertificate = "TLS certificate not trusted"
    /// The TLS handshake failed otherwise: the broker speaks no TLS, or wants a client certificate.
    case tlsHandshake = "TLS handshake failed"
    /// The name was not found, or no route leads to the address.
    case unreachable = "unreachable"
    /// The broker took the TCP connection and said nothing within the connect timeout.
    case noAnswer = "no answer"
    /// An established connection ended.
    case lost = "connection lost"

    /// The words for the failure.
    package var description: String { rawValue }

    /// What to do about it, as an operator would.
    package var fix: String {
        switch self {
        case .refused: return "start the broker (systemctl start mosquitto) or correct host and port"
        case .badCredentials: return "correct username and the password in password_file, as the broker has them"
        case .brokerRefused: return "see the broker's log for why it refused this client id"
        case .tlsNameMismatch: return "set host to a name the broker's certificate lists"
        case .tlsCertificate: return "set cafile to the CA certificate that signed the broker's"
        case .tlsHandshake:
            return
                "check that port is the broker's TLS listener; if it requires a client certificate, set certfile and keyfile"
        case .unreachable: return "check host (the name, the network) and that the pager can reach it"
        case .noAnswer: return "check that port is an MQTT listener, and tls = true if it is a TLS one"
        case .lost: return "see the broker's log; the pager reconnects by itself"
        }
    }

    /// The failure libmosquitto's `code` is (`error`: errno for MOSQ_ERR_ERRNO), during the
    /// connection's handshake (`connecting`) or after, with or without TLS.
    static func of(_ code: Int32, error: Int32, tls: Bool, connecting: Bool) -> MQTTFailure {
        // Under TLS a broker that wants a client certificate closes the connection once the
        // handshake is done, before its CONNACK: lost while connecting.
        if code == MOSQ_ERR_TLS.rawValue || (tls && connecting && code == MOSQ_ERR_CONN_LOST.rawValue) {
            return .tlsHandshake
        }
        guard code == MOSQ_ERR_ERRNO.rawValue else { return connecting ? .noAnswer : .lost }
        switch error {
        case ECONNREFUSED: return .refused
        case ENETUNREACH, EHOSTUNREACH, ETIMEDOUT, EADDRNOTAVAIL: return .unreachable
        case EPROTO where tls && connecting, ECONNRESET where tls && connecting: return .tlsHandshake
        default: return connecting ? .noAnswer : .lost
        }
    }

    /// The failure a refusing CONNACK's `code` is.
    static func of(connack code: Int) -> MQTTFailure { code == 4 || code == 5 ? .badCredentials : .brokerRefused }
}

extension MQTTClient {
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
