import CrownVocabulary
import Foundation
import Glibc
import LinuxSystem
import TestSupport
import Testing

/// sd_notify(3)'s protocol as `ServiceManagerSocket` speaks it, and the journal's stream protocol.
@Suite struct ServiceManagerTests {
    @Test func notificationsAreAssignmentsOneALine() {
        #expect(
            ServiceNotification.message([.ready, .status("page 1 of 4, Clock; the panel is on")])
                == "READY=1\nSTATUS=page 1 of 4, Clock; the panel is on")
        #expect(ServiceNotification.message([.watchdog]) == "WATCHDOG=1")
        #expect(ServiceNotification.message([.stopping]) == "STOPPING=1")
        // A line break in a status would start an assignment of its own ("READY=1" from a page title).
        #expect(ServiceNotification.status("two\nlines\r\nREADY=1").assignment == "STATUS=two lines READY=1")
    }

    @Test func theSocketIsAPathOrAnAbstractName() {
        #expect(ServiceManagerSocket.socketPath("/run/systemd/notify") == Array("/run/systemd/notify".utf8))
        #expect(ServiceManagerSocket.socketPath("@sd-notify") == [0] + Array("sd-notify".utf8))
        #expect(ServiceManagerSocket.socketPath("relative/notify") == nil)
        #expect(ServiceManagerSocket.socketPath("vsock:2:1234") == nil)
        #expect(ServiceManagerSocket.socketPath("@") == nil)
        // sun_path holds 108 bytes: a path needs one of them for its NUL, an abstract name does not.
        #expect(ServiceManagerSocket.socketPath("/" + String(repeating: "a", count: 106)) != nil)
        #expect(ServiceManagerSocket.socketPath("/" + String(repeating: "a", count: 107)) == nil)
        #expect(ServiceManagerSocket.socketPath("@" + String(repeating: "a", count: 107))?.count == 108)
        #expect(throws: ServiceManagerError.unsupportedSocket("notify")) { try ServiceManagerSocket(name: "notify") }
    }

    @Test func theWatchdogIsWATCHDOG_USECForThisProcessOnly() {
        let timeout = TimeSpan.seconds(30)
        #expect(ServiceManagerSocket.watchdogTimeout(microseconds: "30000000", process: nil, ownProcess: 42) == timeout)
        #expect(
            ServiceManagerSocket.watchdogTimeout(microseconds: "30000000", process: "42", ownProcess: 42) == timeout)
        #expect(ServiceManagerSocket.watchdogTimeout(microseconds: "30000000", process: "41", ownProcess: 42) == nil)
        #expect(ServiceManagerSocket.watchdogTimeout(microseconds: nil, process: nil, ownProcess: 42) == nil)
        #expect(ServiceManagerSocket.watchdogTimeout(microseconds: "0", process: nil, ownProcess: 42) == nil)
        #expect(ServiceManagerSocket.watchdogTimeout(microseconds: "-5", process: nil, ownProcess: 42) == nil)
        #expect(ServiceManagerSocket.watchdogTimeout(microseconds: "30s", process: nil, ownProcess: 42) == nil)
        #expect(
            ServiceManagerSocket.watchdogTimeout(microseconds: "\(Int64.max)", process: nil, ownProcess: 42) == nil)
    }

    @Test(arguments: [false, true]) func aDatagramReachesTheListener(abstract: Bool) throws {
        let scratch = try ScratchDirectory()
        let name = abstract ? "@crownpager-test-\(getpid())-\(UUID().uuidString.prefix(8))" : scratch.path + "/notify"
        let listener = try NotificationListener(name: name)
        let socket = try ServiceManagerSocket(name: name)
        try socket.send([.ready, .status("page 2 of 3, Clock; the panel is dimmed")])
        try socket.send([.watchdog])
        #expect(listener.receive(within: 5) == "READY=1\nSTATUS=page 2 of 3, Clock; the panel is dimmed")
        #expect(listener.receive(within: 5) == "WATCHDOG=1")
    }

    @Test func aSocketNobodyListensOnIsAnErrorNamingIt() throws {
        let scratch = try ScratchDirectory()
        let socket = try ServiceManagerSocket(name: scratch.path + "/nobody")
        #expect(throws: ServiceManagerError.send(socket: scratch.path + "/nobody", .noSuchFileOrDirectory)) {
            try socket.send([.ready])
        }
    }

    @Test func theJournalIsStandardErrorOnlyWhenJOURNAL_STREAMNamesItsDeviceAndInode() {
        #expect(JournalStream.names("2049:123456", device: 2049, inode: 123_456))
        #expect(!JournalStream.names("2049:123457", device: 2049, inode: 123_456))
        #expect(!JournalStream.names("2050:123456", device: 2049, inode: 123_456))
        #expect(!JournalStream.names("2049:123456:7", device: 2049, inode: 123_456))
        #expect(!JournalStream.names("2049", device: 2049, inode: 123_456))
        #expect(!JournalStream.names("", device: 0, inode: 0))
        #expect(!JournalStream.names(":", device: 0, inode: 0))
    }

    @Test func eachLineCarriesThePriority() {
        #expect(JournalStream.prefixed("crownpager: no panel", priority: .error) == "<3>crownpager: no panel")
        #expect(
            JournalStream.prefixed("usage:\n  crownpager run", priority: .warning) == "<4>usage:\n<4>  crownpager run")
        #expect(JournalStream.prefixed("crownpager: driving", priority: .info) == "<6>crownpager: driving")
    }
}
