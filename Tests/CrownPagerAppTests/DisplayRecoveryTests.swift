import CrownPagerApp
import CrownVocabulary
import FakeKernel
import Foundation
import Glibc
import LinuxHardware
import PagerCore
import PagerEngine
import PagerGraphics
import SSD1306
import Testing

/// The name of a presentation's case, for comparing.
func caseName(_ presentation: DisplayPresentation<I2CError>) -> String {
    switch presentation {
    case .sent: return "sent"
    case .unchanged: return "unchanged"
    case .waiting: return "waiting"
    case .lost: return "lost"
    case .stillLost: return "stillLost"
    case .recovered(let attempts): return "recovered after \(attempts)"
    }
}

@Suite(.serialized) struct DisplayRecoveryTests {
    @Test func theBackoffDoublesUpToItsCap() {
        let policy = DisplayRetryPolicy()
        #expect(
            (1...8).map { policy.delay(afterFailures: $0).milliseconds } == [
                100, 200, 400, 800, 1600, 3200, 5000, 5000,
            ])
        #expect(policy.delay(afterFailures: 1000).milliseconds == 5000)
    }

    @Test func aNACKBurstMidRunIsRetriedWithBackoffThenInitialisedAndResentWhole() throws {
        let root = NSTemporaryDirectory() + "crownpager-recovery-" + UUID().uuidString
        #expect(fake_kernel_enable(root) == 0)
        defer {
            fake_kernel_disable()
            try? FileManager.default.removeItem(atPath: root)
        }
        #expect(fake_i2c_add_device(1, 0x3C) == 0)
        let bus = try LinuxI2CBus.open(path: "/dev/i2c-1")
        var session = PagerSession(
            pages: demoPages(clock: SampleReadings.clock, system: SampleReadings.system), panel: .ssd1306_128x64,
            bus: bus)
        var health = DisplayHealth()
        let t0 = Timestamp.zero
        func at(_ milliseconds: Int64) -> Timestamp { t0 + .milliseconds(milliseconds) }

        try session.start()
        #expect(caseName(session.presentRecovering(at: t0, health: &health)) == "sent")
        #expect(caseName(session.presentRecovering(at: at(10), health: &health)) == "unchanged")

        // A loose wire: the next three transfers are not acknowledged (100 ms into a slide).
        fake_i2c_fail_next(1, 0x3C, 3, EREMOTEIO)
        session.handle(.rotated(detents: 1, at: at(100)))
        let lost = session.presentRecovering(at: at(200), health: &health)
        guard case .lost(let error, let retryAt) = lost else {
            Issue.record("expected the display to be lost, got \(caseName(lost))")
            return
        }
        #expect(error.kind == .noAcknowledge && retryAt == at(300))
        #expect(caseName(session.presentRecovering(at: at(250), health: &health)) == "waiting")
        #expect(caseName(session.presentRecovering(at: at(300), health: &health)) == "stillLost")
        #expect(health.nextAttempt == at(500))
        #expect(caseName(session.presentRecovering(at: at(500), health: &health)) == "stillLost")
        #expect(health.nextAttempt == at(900))
        fake_i2c_clear_transfers(1, 0x3C)
        #expect(caseName(session.presentRecovering(at: at(900), health: &health)) == "recovered after 3")
        #expect(!health.isLost)

        // Afresh: the init sequence, then the whole frame in one window.
        let transfers = (0..<fake_i2c_transfer_count(1, 0x3C)).map { index -> [UInt8] in
            var bytes = [UInt8](repeating: 0, count: fake_i2c_transfer_length(1, 0x3C, index))
            _ = fake_i2c_copy_transfer(1, 0x3C, index, &bytes, bytes.count)
            return bytes
        }
        #expect(transfers.count == 3)
        #expect(transfers.first == [0x00] + SSD1306Panel.ssd1306_128x64.initializationSequence.flatMap(\.bytes))
        #expect(transfers.dropFirst().first == [0x00, 0x21, 0x00, 0x7F, 0x22, 0x00, 0x07])
        #expect(transfers.last?.count == 1025)
        var emulator = SSD1306Emulator(panel: .ssd1306_128x64)
        for bytes in transfers { emulator.write(bytes, to: .ssd1306Primary) }
        #expect(emulator.glass == session.frame(at: at(900)))
    }
}
