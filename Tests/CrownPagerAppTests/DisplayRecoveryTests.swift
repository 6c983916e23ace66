import CrownPagerApp
import CrownVocabulary
import FakeKernel
import Foundation
import Glibc
import LinuxSystem
import PagerCore
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306
import Testing

@testable import PagerEngine

@Suite(.serialized) struct DisplayRecoveryTests {
    @Test func theBackoffDoublesUpToItsCap() {
        let policy = DisplayRetryPolicy()
        #expect(
            (1...8).map { policy.delay(afterFailures: $0).milliseconds } == [
                100, 200, 400, 800, 1600, 3200, 5000, 5000,
            ])
        #expect(policy.delay(afterFailures: 1000).milliseconds == 5000)
    }

    /// The NACKs come as an errno (i2c-bcm2835) or, from an adapter such as i2c-virtio, as a short
    /// count: by write() and by I2C_RDWR.
    @Test(arguments: [(I2CWriteMethod.write, false), (.write, true), (.rdwr, true)])
    func aNACKBurstMidRunIsRetriedWithBackoffThenInitialisedAndResentWhole(
        writeMethod: I2CWriteMethod, shortCount: Bool
    ) throws {
        let root = NSTemporaryDirectory() + "crownpager-recovery-" + UUID().uuidString
        #expect(fake_kernel_enable(root) == 0)
        defer {
            fake_kernel_disable()
            try? FileManager.default.removeItem(atPath: root)
        }
        #expect(fake_i2c_add_device(1, 0x3C) == 0)
        fake_i2c_set_short_count_nacks(1, shortCount ? 1 : 0)
        let shell = try PanelShell(busPath: "/dev/i2c-1", writeMethod: writeMethod)
        let t0 = Timestamp.zero
        func at(_ milliseconds: Int64) -> Timestamp { t0 + .milliseconds(milliseconds) }

        #expect(shell.start(at: t0))
        #expect(shell.tick(t0).sent)
        #expect(!shell.tick(at(10)).sent)

        // A loose wire: the next three transfers are not acknowledged (100 ms into a slide).
        fake_i2c_fail_next(1, 0x3C, 3, EREMOTEIO)
        _ = shell.engine.handle(.crown(.rotated(detents: 1, at: at(100))), at: at(100))
        #expect(shell.tick(at(200)) == (false, [.displayLost(retryIn: .milliseconds(100))]))
        #expect(shell.errors.last?.kind == .noAcknowledge && shell.engine.health.nextAttempt == at(300))
        #expect(shell.errors.last?.executedMessages == (shortCount ? I2CError.ExecutedMessages(0, of: 1) : nil))
        #expect(shell.engine.handle(.tick, at: at(250)).display.isEmpty)
        #expect(shell.tick(at(300)) == (false, [.displayStillLost(attempts: 2, retryIn: .milliseconds(200))]))
        #expect(shell.engine.health.nextAttempt == at(500))
        #expect(!shell.tick(at(500)).sent)
        #expect(shell.engine.health.nextAttempt == at(900))
        fake_i2c_clear_transfers(1, 0x3C)
        #expect(shell.tick(at(900)) == (true, [.displayRecovered(attempts: 3)]))
        #expect(!shell.engine.health.isLost)

        // Afresh: the init sequence, the whole frame in one window, then Display On (AFh).
        let transfers = fakeTransfers(bus: 1)
        #expect(transfers.count == 4)
        #expect(transfers.first?.starts(with: [0x00, 0xAE]) == true)  // Set Display OFF (AEh) opens the init sequence
        #expect(transfers.dropFirst().first == [0x00, 0x21, 0x00, 0x7F, 0x22, 0x00, 0x07])
        #expect(transfers.dropLast().last?.count == 1025)
        #expect(transfers.last == [0x00, 0xAF])
        var emulator = SSD1306Emulator(panel: .ssd1306_128x64)
        for bytes in transfers { emulator.write(bytes, to: .ssd1306Primary) }
        #expect(emulator.glass == shell.engine.presenter.frame(at: at(900)))
    }

    @Test func aVanishedAdapterIsReopenedWhenItReturnsThenInitialisedAndResentWhole() throws {
        let root = NSTemporaryDirectory() + "crownpager-reopen-" + UUID().uuidString
        #expect(fake_kernel_enable(root) == 0)
        defer {
            fake_kernel_disable()
            try? FileManager.default.removeItem(atPath: root)
        }
        #expect(fake_i2c_add_device(3, 0x3C) == 0)
        let shell = try PanelShell(busPath: "/dev/i2c-3")
        let t0 = Timestamp.zero
        func at(_ milliseconds: Int64) -> Timestamp { t0 + .milliseconds(milliseconds) }

        #expect(shell.start(at: t0))
        #expect(shell.tick(t0).sent)
        let sentBefore = fake_i2c_transfer_count(3, 0x3C)

        // The USB adapter is unplugged; a detent 100 ms later needs a frame.
        #expect(fake_i2c_remove_adapter(3) == 0)
        _ = shell.engine.handle(.crown(.rotated(detents: 1, at: at(100))), at: at(100))
        #expect(shell.tick(at(200)) == (false, [.displayLost(retryIn: .milliseconds(100))]))
        #expect(shell.errors.last?.kind == .adapterGone && shell.errors.last?.operation == .write)
        #expect(
            shell.errors.last?.description.hasPrefix("/dev/i2c-3 disappeared (could not write to 0x3c on /dev/i2c-3")
                == true)
        #expect(shell.errors.last?.description.contains("check the wiring") == false)

        // While it is missing, every attempt fails at once on the missing node, with the same cause.
        #expect(shell.tick(at(300)) == (false, [.displayStillLost(attempts: 2, retryIn: .milliseconds(200))]))
        #expect(shell.tick(at(500)) == (false, [.displayStillLost(attempts: 3, retryIn: .milliseconds(400))]))
        #expect(shell.errors.count == 3)
        for error in shell.errors.dropFirst() {
            #expect(error.kind == .adapterGone && error.operation == .open && error.errno == .noSuchFileOrDirectory)
            #expect(
                error.description.hasSuffix(
                    "the USB or bit-banged adapter was unplugged or its driver unloaded; waiting for it to come back"))
        }
        #expect(fake_i2c_transfer_count(3, 0x3C) == sentBefore)

        // Plugged in again: the next attempt reopens the path; the panel is initialised afresh and
        // the whole frame goes out.
        #expect(fake_i2c_add_bus(3) == 0)
        fake_i2c_clear_transfers(3, 0x3C)
        #expect(!shell.tick(at(800)).sent)
        #expect(shell.tick(at(900)) == (true, [.displayRecovered(attempts: 3)]))
        #expect(!shell.engine.health.isLost)
        let transfers = fakeTransfers(bus: 3)
        #expect(transfers.first?.starts(with: [0x00, 0xAE]) == true)
        #expect(transfers.dropLast().last?.count == 1025)
        #expect(transfers.last == [0x00, 0xAF])
        var emulator = SSD1306Emulator(panel: .ssd1306_128x64)
        for bytes in transfers { emulator.write(bytes, to: .ssd1306Primary) }
        #expect(emulator.glass == shell.engine.presenter.frame(at: at(900)))
    }
}

/// The run shell's part around the engine, on a real `LinuxI2CBus` under the fake kernel: write
/// the transfers, tell the engine how it went, keep the bus errors.
final class PanelShell {
    var bus: LinuxI2CBus
    var engine: DeviceEngine
    var errors: [I2CError] = []

    /// Three text pages (nothing to read, so each tick may draw) on the panel at `busPath`, no screen saver.
    init(busPath: String, writeMethod: I2CWriteMethod = .write) throws {
        bus = try LinuxI2CBus.open(path: busPath, writeMethod: writeMethod)
        var configuration = Configuration.demo()
        configuration.pages = ["One", "Two", "Three"].map { PageSpec(title: $0, kind: .text($0 + " page")) }
        configuration.display.dimAfter = nil
        configuration.display.offAfter = nil
        engine = DeviceEngine(
            configuration: configuration, style: PageIndicatorStyle(), clock: SampleReadings.clock, start: .zero)
    }

    /// Writes `effects`' transfers; whether they went out, and the log with the engine's answer.
    func deliver(_ effects: Effects, at now: Timestamp) -> (sent: Bool, log: [EngineLog]) {
        guard !effects.display.isEmpty else { return (false, effects.log) }
        do throws(I2CError) {
            try bus.replay(effects.display.transfers(at: .ssd1306Primary))
        } catch {
            errors.append(error)
            return (false, effects.log + engine.handle(.displayFailed, at: now).log)
        }
        let took = FramePacer.busTime(
            bytes: effects.display.framedByteCount, transactions: effects.display.count,
            hertz: 400_000)
        return (true, effects.log + engine.handle(.written(took: took), at: now).log)
    }

    /// Initialises the panel; whether it answered.
    func start(at now: Timestamp) -> Bool { deliver(engine.handle(.start, at: now), at: now).sent }

    /// A tick at `now`, delivered.
    func tick(_ now: Timestamp) -> (sent: Bool, log: [EngineLog]) {
        deliver(engine.handle(.tick, at: now), at: now)
    }
}

/// The transfers the fake kernel recorded for the panel at 0x3c on `/dev/i2c-<bus>`.
func fakeTransfers(bus: Int32) -> [[UInt8]] {
    (0..<fake_i2c_transfer_count(bus, 0x3C)).map { index -> [UInt8] in
        var bytes = [UInt8](repeating: 0, count: fake_i2c_transfer_length(bus, 0x3C, index))
        _ = fake_i2c_copy_transfer(bus, 0x3C, index, &bytes, bytes.count)
        return bytes
    }
}
