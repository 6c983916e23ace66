import CrownInput
import CrownPagerApp
import CrownVocabulary
import FakeKernel
import Foundation
import LinuxSystem
import PagerCore
import PagerEngine
import PagerSettings
import Testing

/// `GPIOCrownSource` on a fake `/dev/gpiochip0`, through the real libgpiod this process loaded (1.6 or 2.x).
@Suite(.serialized) struct GPIOCrownSourceTests {
    /// Runs `body` with a fake chip of 54 lines enabled, then disables it.
    func withFakeChip(_ body: () throws -> Void) throws {
        let root = NSTemporaryDirectory() + "crownpager-gpio-source-" + UUID().uuidString
        #expect(fake_kernel_enable(root) == 0)
        defer {
            fake_kernel_disable()
            try? FileManager.default.removeItem(atPath: root)
        }
        #expect(fake_gpio_add_chip(0, 54) == 0)
        try body()
    }

    /// One detent clockwise (A leads B) from rest, from `start` milliseconds, an edge every `step` ms.
    func detent(_ a: UInt32 = 17, _ b: UInt32 = 27, from start: UInt64, step: UInt64 = 2) {
        for (index, (line, level)) in [(a, 0), (b, 0), (a, 1), (b, 1)].enumerated() {
            #expect(fake_gpio_set_line(0, line, Int32(level), (start + UInt64(index) * step) * 1_000_000) == 0)
        }
    }

    @Test func turnsAndPressesBecomeCrownFactsWithTheKernelsTimes() throws {
        try withFakeChip {
            let source = try GPIOCrownSource()
            #expect(source.sourceDescription.hasPrefix("/dev/gpiochip0 lines 17 (A), 27 (B), 22 (button) (libgpiod "))
            detent(from: 100)
            detent(from: 300)
            detent(27, 17, from: 500)  // B leads A: counterclockwise
            #expect(fake_gpio_set_line(0, 22, 0, 700_000_000) == 0)
            #expect(fake_gpio_set_line(0, 22, 1, 820_000_000) == 0)
            var events: [CrownEvent] = []
            for _ in 0..<10 where events.count < 5 { events += try source.nextEvents(timeoutMilliseconds: 200) ?? [] }
            #expect(
                events == [
                    .rotated(detents: 1, at: .milliseconds(106)), .rotated(detents: 1, at: .milliseconds(306)),
                    .rotated(detents: -1, at: .milliseconds(506)), .pressed(at: .milliseconds(700)),
                    .released(at: .milliseconds(820)),
                ])
            // The decoder counts the reversal's first quarter step back as a bounce: it cannot tell them apart.
            #expect(source.glitchesFiltered == 1)
        }
    }

    @Test func buttonChatterMakesOnePressWhoeverDebounces() throws {
        try withFakeChip {
            let source = try GPIOCrownSource()
            // With libgpiod 2.x the kernel debounces (the fake records the period); with 1.x the decoder does.
            #expect(fake_gpio_debounce_us(0, 22) == (GPIOLines.apiMajor >= 2 ? 5000 : 0))
            guard GPIOLines.apiMajor == 1 else { return }
            for (index, level) in [0, 1, 0, 1, 0].enumerated() {
                #expect(fake_gpio_set_line(0, 22, Int32(level), UInt64(1_000_000 + index * 300_000)) == 0)
            }
            var events: [CrownEvent] = []
            for _ in 0..<10 where events.isEmpty { events += try source.nextEvents(timeoutMilliseconds: 100) ?? [] }
            #expect(events == [.pressed(at: .milliseconds(1))])
            #expect(source.glitchesFiltered == 4)
        }
    }

    @Test func aBusyLineFailsWithTheChipTheLineAndTheFix() throws {
        try withFakeChip {
            #expect(fake_gpio_hold_line(0, 22, "gpio-keys") == 0)
            do throws(CrownPagerError) {
                do throws(GPIOError) { _ = try GPIOCrownSource(wiring: GPIOCrownWiring(button: 22)) } catch {
                    throw .crown(error)
                }
                Issue.record("a busy line was requested")
            } catch {
                guard case .crown(let gpio) = error else {
                    Issue.record("expected .crown, got \(error)")
                    return
                }
                #expect(
                    gpio.operation == .request && gpio.chipPath == "/dev/gpiochip0" && gpio.offset == 22
                        && gpio.kind == .lineBusy)
                #expect(error.description.contains("could not request line 22 on /dev/gpiochip0"))
                #expect(error.description.contains("gpioinfo gpiochip0"))
            }
        }
    }
}

extension GPIOCrownSource {
    /// Waits up to `timeoutMilliseconds` for the lines, as the run loop's poll(2) does, then takes the facts.
    func nextEvents(timeoutMilliseconds: Int) throws -> [CrownEvent]? {
        _ = try Readiness.wait(for: wakeup.descriptors, timeoutMilliseconds: timeoutMilliseconds)
        return try facts(at: MonotonicClock.now())
    }
}
