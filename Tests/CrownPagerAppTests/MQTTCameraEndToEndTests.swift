import Foundation
import GlassViews
import Glibc
import PagerGraphics
import SSD1306
import TestSupport
import Testing

@testable import CrownPagerApp

/// The glass as Home Assistant's MQTT camera against Debian's mosquitto: `crownpager run` on the
/// fake kernel publishes, retained on `<base>/glass`, the PNG of what the fake bus's panel shows,
/// at start and after a detent; the device config holds the camera.
@Suite(.tags(.endToEnd), .serialized) struct MQTTCameraEndToEndTests {
    static let base = "crownpager/cam"

    static func configuration(port: Int) -> String {
        brokerConfiguration(
            port: port, base: base, mqtt: "client_id = \"crownpager-cam\"\ncamera_interval = \"1s\"")
            + "\n[[page]]\nkind = \"text\"\ntitle = \"Hall\"\ntext = \"hall light\"\n"
    }

    /// The retained payload on `topic`, as bytes (mosquitto_sub `-N`: no line end added); empty
    /// when none came within `seconds`.
    static func retainedBytes(_ broker: MosquittoBroker, _ topic: String, seconds: Double = 5) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        process.arguments = [
            "-h", "127.0.0.1", "-p", "\(broker.port)", "-t", topic, "-C", "1", "-N", "--retained-only",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        _ = waitUntil(seconds: seconds) { !process.isRunning }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return []
        }
        return Array(output.fileHandleForReading.readDataToEndOfFile())
    }

    /// The glass the fake bus's transfers leave on a fresh emulator.
    static func glass(_ knob: FakeKnobRun) throws -> Bitmap {
        var emulator = SSD1306Emulator(panel: .ssd1306_128x64)
        emulator.replay(try knob.bus.transfers())
        return emulator.glass
    }

    /// Waits, with a deadline, until the camera's retained PNG is the fake panel's glass, that glass
    /// satisfying `condition`; returns that glass.
    static func waitForPicture(_ broker: MosquittoBroker, _ knob: FakeKnobRun, _ condition: (Bitmap) -> Bool)
        throws -> Bitmap?
    {
        var last: (glass: Int, picture: Int) = (0, 0)
        var matched: Bitmap?
        _ = try waitUntil(every: 0.1) {
            let glass = try Self.glass(knob)
            let picture = try retainedBytes(broker, base + "/glass", seconds: 2)
            if condition(glass), picture == FrameFiles.png(glass, scale: MQTTCamera.scale) { matched = glass }
            last = (glass.litPixelCount, picture.count)
            return matched != nil
        }
        if let matched { return matched }
        Issue.record("last: \(last.glass) pixels lit on the bus, a picture of \(last.picture) bytes")
        return nil
    }

    @Test func theCameraTopicHoldsTheGlassAfterADetent() throws {
        let broker = try MosquittoBroker()
        let knob = try FakeKnobRun()
        let path = knob.bus.scratch.path + "/crownpager.toml"
        try Self.configuration(port: broker.port).write(toFile: path, atomically: true, encoding: .utf8)
        let (process, _, error) = try knob.start(["run", "--config", path, "--persist", "--no-acceleration"])
        defer { if process.isRunning { process.terminate() } }

        let first = try Self.waitForPicture(broker, knob) { $0.litPixelCount > 0 }
        #expect(first != nil, "the first page's glass pictured")
        knob.write(FakeKnobRun.detents(1))
        let second = try Self.waitForPicture(broker, knob) { $0 != first && $0.litPixelCount > 0 }
        #expect(second != nil && second != first, "the second page's glass pictured after the detent")

        let config = try HomeAssistantEndToEndTests.json(
            try broker.retained("homeassistant/device/crownpager-cam/config"))
        let camera = (config["components"] as? [String: [String: Any]])?["glass"]
        #expect(camera?["platform"] as? String == "camera" && camera?["topic"] as? String == Self.base + "/glass")
        let messages = FakeBusRun.stop(process, error: error)
        #expect(process.terminationStatus == 0, "\(messages)")
    }
}
