import CrownVocabulary
import LinuxSystem
import PagerEngine
import Testing

@testable import CrownPagerApp

/// What the run loop tells systemd, with the datagrams caught instead of sent.
@Suite struct ServiceNotifierTests {
    /// The datagrams a notifier sent, and the warnings it gave.
    final class Sent {
        var messages: [String] = []
        var warnings: [String] = []
        var failure: ServiceManagerError?
    }

    static func notifier(watchdog: TimeSpan?, _ sent: Sent) -> ServiceNotifier {
        ServiceNotifier(
            watchdog: watchdog, warn: { sent.warnings.append($0) },
            send: { (notifications) throws(ServiceManagerError) in
                if let failure = sent.failure { throw failure }
                sent.messages.append(ServiceNotification.message(notifications))
            })
    }

    static let clock = ServiceStatus(page: 1, pageCount: 4, title: "Clock", screen: .bright, displayLost: false)

    @Test func readyCarriesTheStatusAndTheStatusIsSentOnlyWhenItChanges() {
        let sent = Sent()
        var notifier = Self.notifier(watchdog: nil, sent)
        notifier.ready(Self.clock, at: .zero)
        #expect(sent.messages == ["READY=1\nSTATUS=page 2 of 4, Clock; the panel is on"])
        for frame in 1...60 { notifier.turn(Self.clock, at: .milliseconds(Int64(frame) * 16)) }
        #expect(sent.messages.count == 1)
        var dimmed = Self.clock
        dimmed.screen = .dimmed
        notifier.turn(dimmed, at: .milliseconds(2000))
        notifier.turn(dimmed, at: .milliseconds(2016))
        var lost = dimmed
        lost.displayLost = true
        notifier.turn(lost, at: .milliseconds(3000))
        #expect(
            sent.messages.dropFirst() == [
                "STATUS=page 2 of 4, Clock; the panel is dimmed",
                "STATUS=page 2 of 4, Clock; the display does not answer, retrying",
            ])
        notifier.stopping()
        #expect(sent.messages.last == "STOPPING=1")
    }

    @Test func withoutAWatchdogTheLoopIsNeverWokenForIt() {
        let sent = Sent()
        var notifier = Self.notifier(watchdog: nil, sent)
        notifier.ready(Self.clock, at: .zero)
        #expect(notifier.nextDeadline == nil)
        notifier.turn(Self.clock, at: .milliseconds(3_600_000))
        #expect(!sent.messages.contains("WATCHDOG=1"))
        #expect(ServiceNotifier().nextDeadline == nil && !ServiceNotifier().isListening)
    }

    @Test func theLoopPingsAtHalfTheWatchdogTimeout() {
        let sent = Sent()
        var notifier = Self.notifier(watchdog: .seconds(30), sent)
        notifier.ready(Self.clock, at: .milliseconds(100_000))
        #expect(notifier.nextDeadline == .milliseconds(115_000))
        notifier.turn(Self.clock, at: .milliseconds(114_999))
        #expect(sent.messages.count == 1)
        // A turn late by a little (poll rounds up to milliseconds) pings, and the next deadline counts from it.
        notifier.turn(Self.clock, at: .milliseconds(115_002))
        #expect(sent.messages.last == "WATCHDOG=1")
        #expect(notifier.nextDeadline == .milliseconds(130_002))
        notifier.turn(Self.clock, at: .milliseconds(120_000))
        #expect(sent.messages.count == 2)
        notifier.stopping()
        #expect(notifier.nextDeadline == nil)
    }

    @Test func aFailureToSendIsWarnedOnceAndTheRunGoesOn() {
        let sent = Sent()
        sent.failure = .send(socket: "/run/systemd/notify", .resourceTemporarilyUnavailable)
        var notifier = Self.notifier(watchdog: .seconds(2), sent)
        notifier.ready(Self.clock, at: .zero)
        for second in 1...10 { notifier.turn(Self.clock, at: .milliseconds(Int64(second) * 1000)) }
        #expect(sent.warnings.count == 1)
        #expect(sent.warnings.first?.contains("cannot notify systemd through /run/systemd/notify") == true)
        #expect(notifier.nextDeadline == .milliseconds(11_000))
    }

    @Test func theStatusNamesThePageAndThePanel() {
        var status = Self.clock
        status.screen = .off
        #expect(status.text == "page 2 of 4, Clock; the panel is off (idle)")
        status.title = ""
        #expect(status.text == "page 2 of 4; the panel is off (idle)")
    }
}
