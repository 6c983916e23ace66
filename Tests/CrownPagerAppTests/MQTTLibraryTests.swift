import Foundation
import Glibc
import TestSupport
import Testing

/// libmosquitto is loaded at run time, only when `[mqtt]` has a host: a run without MQTT maps
/// neither it nor libssl, and a missing library is an error with the package to install.
@Suite(.tags(.endToEnd)) struct MQTTLibraryTests {
    static let missing = "/nonexistent/libmosquitto.so.1"

    /// A configuration on the fake bus, with `[mqtt]` when `mqtt` is given.
    static func configuration(_ fake: FakeBusRun, mqtt: String?) throws -> String {
        let path = fake.scratch.path + "/crownpager.toml"
        let text = "[display]\nbus = 1\n" + (mqtt.map { "\n[mqtt]\n\($0)\n" } ?? "")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The libraries `process` has mapped, once `condition` holds of them or 20 s passed.
    static func mappedLibraries(_ process: Process, until condition: (String) -> Bool) -> String {
        var maps = ""
        _ = waitUntil(seconds: 20) {
            guard process.isRunning else { return true }
            // Read to the end: String(contentsOfFile:) stops after the first 4 KiB of a /proc file
            // (its size says 0), where a library mapped later may not be.
            let file = FileHandle(forReadingAtPath: "/proc/\(process.processIdentifier)/maps")
            maps = String(decoding: file?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
            return condition(maps)
        }
        return maps
    }

    @Test func aMissingLibmosquittoIsNamedWithThePackageAndEnds69() throws {
        let fake = try FakeBusRun()
        let path = try Self.configuration(fake, mqtt: "host = \"127.0.0.1\"")
        let environment = ["CROWNPAGER_LIBMOSQUITTO": Self.missing]
        let (status, _, error) = try fake.run(["run", "--config", path], devices: "1:0x3c", extra: environment)
        #expect(status == 69, "\(error)")
        #expect(
            error.contains("libmosquitto could not be loaded from CROWNPAGER_LIBMOSQUITTO=\(Self.missing)"), "\(error)")
        #expect(error.contains("point it at libmosquitto.so.1, or unset it"), "\(error)")
        let doctor = try runCrownPager(["doctor", "mqtt", "--config", path], environment: environment)
        #expect(doctor.status == 69, "\(doctor.standardOutput)\(doctor.standardError)")
        #expect(doctor.standardError.contains("libmosquitto could not be loaded"), "\(doctor.standardError)")
    }

    @Test func withoutAHostNeitherLibmosquittoNorLibsslIsMapped() throws {
        let fake = try FakeBusRun()
        // Without [mqtt], a library that is not there is never asked for.
        let off = try Self.configuration(fake, mqtt: nil)
        let environment = ["CROWNPAGER_LIBMOSQUITTO": Self.missing]
        let socket = fake.scratch.path + "/control.sock"
        let (quiet, _, quietError) = try fake.start(
            ["run", "--config", off, "--socket", socket], devices: "1:0x3c", extra: environment)
        defer { if quiet.isRunning { quiet.terminate() } }
        // The control socket answers: the run is past its start, where MQTT would have been opened.
        _ = try waitUntil(seconds: 20) { try runCrownPager(["status", "--socket", socket]).status == 0 }
        let withoutMQTT = Self.mappedLibraries(quiet) { $0.contains("libc.so") }
        #expect(quiet.isRunning)
        #expect(!withoutMQTT.contains("libmosquitto") && !withoutMQTT.contains("libssl"), "\(withoutMQTT)")
        let quietMessages = FakeBusRun.stop(quiet, error: quietError)
        #expect(quiet.terminationStatus == 0, "\(quietMessages)")

        // With a host (nobody listening: loading comes first), the library is mapped.
        let on = try Self.configuration(fake, mqtt: "host = \"127.0.0.1\"\nport = \(try freeTCPPort())")
        let (pager, _, error) = try fake.start(["run", "--config", on], devices: "1:0x3c")
        defer { if pager.isRunning { pager.terminate() } }
        // Both awaited: dlopen maps libmosquitto before the libssl it needs, and a read of the maps
        // between the two (the fresh Debian 13 root's run in CI, under load) saw only the first.
        let withMQTT = Self.mappedLibraries(pager) { $0.contains("libmosquitto.so") && $0.contains("libssl") }
        #expect(withMQTT.contains("libmosquitto.so") && withMQTT.contains("libssl"))
        let messages = FakeBusRun.stop(pager, error: error)
        #expect(pager.terminationStatus == 0, "\(messages)")
    }
}
