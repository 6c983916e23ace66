import Foundation
import Glibc
import PagerConfig
import PagerSettings
import TestSupport
import Testing

/// `[mqtt]`'s client certificate: certfile and keyfile both or neither, only with TLS, and a key
/// file others may read refused at start, as the password file is.
@Suite struct MQTTClientCertificateTests {
    @Test func certfileAndKeyfileGoTogetherAndOnlyWithTLS() throws {
        let cases = [
            (
                "tls = true\ncertfile = \"c.crt\"", 4,
                "certfile needs its private key: add keyfile = \"/path/to/client.key\""
            ),
            (
                "tls = true\nkeyfile = \"c.key\"", 4,
                "keyfile needs its certificate: add certfile = \"/path/to/client.crt\""
            ),
            (
                "certfile = \"c.crt\"\nkeyfile = \"c.key\"", 3,
                "a client certificate is sent only over TLS: add tls = true"
            ),
        ]
        for (lines, line, message) in cases {
            do {
                _ = try parseConfiguration("[mqtt]\nhost = \"broker\"\n" + lines)
                Issue.record("no error for \(lines)")
            } catch {
                #expect(error.line == line && error.message == message, "\(error)")
            }
        }
        let both = try parseConfiguration("[mqtt]\nhost = \"b\"\ntls = true\ncertfile = \"c.crt\"\nkeyfile = \"c.key\"")
        #expect(both.mqtt.certfile == "c.crt" && both.mqtt.keyfile == "c.key")
    }

    @Test(.tags(.endToEnd)) func aKeyFileOthersMayReadIsRefusedWithTheFix() throws {
        let fake = try FakeBusRun()
        let key = fake.scratch.path + "/client.key"
        try "not a key\n".write(toFile: key, atomically: true, encoding: .utf8)
        #expect(chmod(key, 0o644) == 0)
        let path = fake.scratch.path + "/crownpager.toml"
        let text = """
            [display]
            bus = 1

            [mqtt]
            host = "127.0.0.1"
            tls = true
            certfile = "\(fake.scratch.path)/client.crt"
            keyfile = "\(key)"
            """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let (status, _, error) = try fake.run(["run", "--config", path], devices: "1:0x3c")
        #expect(status == 78, "\(error)")
        #expect(error.contains("keyfile \(key) may be read by others (mode 644): chmod 640 \(key)"), "\(error)")
    }
}
