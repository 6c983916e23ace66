import Foundation
import Glibc
import TestSupport
import Testing

/// A certificate authority made by `openssl` at test time, in a scratch folder: its certificate,
/// a server certificate for localhost and 127.0.0.1, one for another name, and a client certificate.
struct TestCertificateAuthority {
    let folder: String
    /// The CA's certificate (PEM): the pager's `cafile`.
    var certificate: String { folder + "/ca.crt" }

    /// A new CA in `folder`, with its three certificates signed.
    init(in folder: String) throws {
        self.folder = folder
        try Self.openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=CrownPager test CA",
            "-keyout", folder + "/ca.key", "-out", certificate,
        ])
        try sign("server", subject: "/CN=localhost", extensions: "subjectAltName=DNS:localhost,IP:127.0.0.1")
        try sign("wrong", subject: "/CN=wrong.example", extensions: "subjectAltName=DNS:wrong.example")
        try sign("client", subject: "/CN=crownpager", extensions: "extendedKeyUsage=clientAuth")
    }

    /// The certificate and key files of `name` (server, wrong or client).
    func files(_ name: String) -> (certificate: String, key: String) {
        (folder + "/\(name).crt", folder + "/\(name).key")
    }

    private func sign(_ name: String, subject: String, extensions: String) throws {
        let (certificate, key) = files(name)
        try Self.openssl([
            "req", "-newkey", "rsa:2048", "-nodes", "-subj", subject, "-keyout", key, "-out", folder + "/\(name).csr",
        ])
        try extensions.write(toFile: folder + "/\(name).ext", atomically: true, encoding: .utf8)
        try Self.openssl([
            "x509", "-req", "-in", folder + "/\(name).csr", "-CA", self.certificate, "-CAkey", folder + "/ca.key",
            "-CAcreateserial", "-days", "2", "-extfile", folder + "/\(name).ext", "-out", certificate,
        ])
        #expect(chmod(key, 0o600) == 0)
    }

    private static func openssl(_ arguments: [String]) throws {
        let run = try runProgram("/usr/bin/openssl", arguments)
        #expect(run.status == 0, "openssl \(arguments.joined(separator: " ")): \(run.standardError)")
    }
}
