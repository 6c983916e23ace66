import Foundation
import LinuxSystem
import PagerGraphics
import SSD1306
import TestSupport
import Testing
import VhostUserI2C

/// The guest's RAM as the test (playing QEMU) sees its memfd: one region, mapped here too.
struct MappedRegionMemory: GuestMemory {
    let region: MemoryRegion
    let mapping: SharedMemoryMapping

    func load(_ count: Int, at address: UInt64) -> [UInt8]? {
        guard let (_, offset) = [region].locate(guestPhysical: address, count: count) else { return nil }
        return mapping.load(count, at: offset)
    }

    func store(_ bytes: [UInt8], at address: UInt64) -> Bool {
        guard let (_, offset) = [region].locate(guestPhysical: address, count: bytes.count) else { return false }
        return mapping.store(bytes, at: offset)
    }
}

/// QEMU's side of a vhost-user-i2c device, in this process: the built `crownpager-vhost-i2c` is the back-end.
final class FrontEnd {
    static let region = MemoryRegion(
        guestPhysicalAddress: 0x10_0000, size: 1 << 20, userAddress: 0x7F12_3400_0000, mmapOffset: 0)
    let process = Process()
    let standardError = Pipe()
    let socket: UnixSocket
    let memory: MappedRegionMemory
    let memoryFile: FileDescriptor
    let kick: EventCounter
    let call: EventCounter
    var ring: DriverRing<MappedRegionMemory>

    init(socketPath: String, glassPath: String) throws {
        process.executableURL = crownPagerExecutable().deletingLastPathComponent()
            .appendingPathComponent("crownpager-vhost-i2c")
        process.arguments = ["--socket", socketPath, "--glass", glassPath, "--address", "0x3c"]
        process.standardError = standardError
        try process.run()
        // The program binds its socket soon after it starts: connect until it is there, for at most 10 s.
        let deadline = Date().addingTimeInterval(10)
        var connected: UnixSocket?
        while connected == nil {
            do { connected = try UnixSocket(connectingTo: socketPath) } catch {
                guard Date() < deadline, process.isRunning else { throw error }
                _ = try Readiness.wait(for: [], timeoutMilliseconds: 5)
            }
        }
        socket = try #require(connected)
        memoryFile = try SharedMemoryMapping.makeMemoryFile(named: "guest-ram", size: Int(Self.region.size))
        memory = MappedRegionMemory(
            region: Self.region, mapping: try SharedMemoryMapping(mapping: memoryFile, length: Int(Self.region.size)))
        kick = try EventCounter()
        call = try EventCounter()
        ring = DriverRing(memory: memory, size: 4, base: Self.region.guestPhysicalAddress)
    }

    deinit {
        kick.close()
        call.close()
        _ = try? memoryFile.close()
        if process.isRunning { process.terminate() }
    }

    /// Sends request `request` with `payload` (and `descriptors`); with `reply`, reads the reply's payload.
    @discardableResult
    func send(_ request: UInt32, _ payload: [UInt8] = [], descriptors: [FileDescriptor] = [], reply: Bool = false)
        throws -> [UInt8]
    {
        let header = VhostUserHeader(request: request, flags: 1, payloadSize: UInt32(payload.count))
        try socket.send(header.bytes + payload, descriptors: descriptors)
        guard reply else { return [] }
        let head = try #require(try socket.receive(VhostUserHeader.size))
        let replyHeader = try VhostUserHeader(decoding: head.bytes)
        #expect(replyHeader.request == request)
        #expect(replyHeader.flags == 5)
        return try #require(try socket.receive(Int(replyHeader.payloadSize))).bytes
    }

    /// The start-up and probe sequence QEMU 7.2 sends (docs/design/vm-rig.md).
    func startDevice() throws {
        #expect(try send(1, reply: true) == .le(VhostUserI2CBackend.offeredFeatures))
        #expect(try send(15, reply: true) == .le(UInt64(0)))
        try send(16, .le(UInt64(0)))
        try send(3)
        try send(2, .le(VhostUserI2CBackend.offeredFeatures))
        let region = Self.region
        // Built in parts, not one long sum of `.le` calls: Swift 6.0.3's type checker gives up on that.
        let memoryTable: [[UInt8]] = [
            .le(UInt32(1)), .le(UInt32(0)), .le(region.guestPhysicalAddress), .le(region.size),
            .le(region.userAddress), .le(region.mmapOffset),
        ]
        try send(5, Array(memoryTable.joined()), descriptors: [memoryFile])
        try send(8, .le(UInt32(0)) + .le(UInt32(ring.size)))
        try send(10, .le(UInt32(0)) + .le(UInt32(0)))
        let toUser = region.userAddress - region.guestPhysicalAddress
        let ringAddresses: [[UInt8]] = [
            .le(UInt32(0)), .le(UInt32(0)), .le(ring.descriptorTable + toUser), .le(ring.usedRing + toUser),
            .le(ring.availableRing + toUser), .le(UInt64(0)),
        ]
        try send(9, Array(ringAddresses.joined()))
        try send(12, .le(UInt64(0)), descriptors: [kick.descriptor])
        try send(13, .le(UInt64(0)), descriptors: [call.descriptor])
        try send(18, .le(UInt32(0)) + .le(UInt32(1)))
    }

    /// Queues one message as Linux's driver does (indirect), kicks, and waits for the interrupt; returns its status.
    func transfer(to address: UInt8, write data: [UInt8]) throws -> UInt8? {
        let before = ring.usedIndex
        let placed = ring.addMessage(to: address, write: data, indirect: true)
        try kick.signal()
        let deadline = Date().addingTimeInterval(10)
        while ring.usedIndex == before, Date() < deadline {
            _ = try Readiness.wait(for: [call.descriptor.rawValue], timeoutMilliseconds: 1000)
            _ = call.take()
        }
        return ring.usedIndex == before ? nil : ring.byte(at: placed.status)
    }

    /// Waits (at most 10 s) for the program to end; its status and what it wrote to standard error.
    func finish() -> (status: Int32, standardError: String) {
        let text = String(decoding: standardError.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}

@Suite(.tags(.endToEnd), .serialized) struct BackEndEndToEndTests {
    @Test func aFrameOverTheSocketLandsInTheGlass() throws {
        let scratch = try ScratchDirectory()
        let glassPath = scratch.path + "/glass.pbm"
        let qemu = try FrontEnd(socketPath: scratch.path + "/vhost.sock", glassPath: glassPath)
        try qemu.startDevice()
        var reference = SSD1306Emulator()
        for transfer in initializationAndFrame(testFrame()) {
            #expect(try qemu.transfer(to: 0x3C, write: transfer.bytes) == 0)
            reference.write(transfer.bytes, to: transfer.address)
        }
        // SIGUSR2 writes the glass while the run goes on.
        kill(qemu.process.processIdentifier, SIGUSR2)
        _ = waitUntil(seconds: 10, every: 0.005) { FileManager.default.fileExists(atPath: glassPath) }
        #expect(try PBM.decode(Array(try Data(contentsOf: URL(fileURLWithPath: glassPath)))) == testFrame())
        // Another address NACKs; an absent panel (SIGUSR1) NACKs until the next SIGUSR1.
        #expect(try qemu.transfer(to: 0x3D, write: [0x00, 0xA7]) == 1)
        kill(qemu.process.processIdentifier, SIGUSR1)
        #expect(try qemu.transfer(to: 0x3C, write: [0x00, 0xA7]) == 1)
        kill(qemu.process.processIdentifier, SIGUSR1)
        #expect(try qemu.transfer(to: 0x3C, write: [0x00, 0xA6]) == 0)
        // GET_VRING_BASE: where the ring stopped.
        #expect(
            try qemu.send(11, .le(UInt32(0)) + .le(UInt32(0)), reply: true) == .le(UInt32(0))
                + .le(UInt32(qemu.ring.availableIndex)))
        // QEMU going away ends the run: the glass is written, the status is 0.
        qemu.socket.shutdown()
        let (status, standardError) = qemu.finish()
        #expect(status == 0, "\(standardError)")
        #expect(standardError.contains("QEMU disconnected after"))
        let glass = try PBM.decode(Array(try Data(contentsOf: URL(fileURLWithPath: glassPath))))
        #expect(glass == reference.glass)
        #expect(glass == testFrame())
    }
}

extension BackEndEndToEndTests {
    @Test func aBrokenStreamEndsTheRunWithEXPROTOCOLAndStillWritesTheGlass() throws {
        let scratch = try ScratchDirectory()
        let glassPath = scratch.path + "/glass.pbm"
        let qemu = try FrontEnd(socketPath: scratch.path + "/vhost.sock", glassPath: glassPath)
        try qemu.startDevice()
        // A header whose flags carry no version: the stream's framing is lost.
        try qemu.socket.send([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        let (status, standardError) = qemu.finish()
        #expect(status == 76, "\(standardError)")
        #expect(standardError.contains("do not carry version 1"))
        #expect(standardError.contains("the vhost-user stream broke after 0 messages answered"))
        #expect(FileManager.default.fileExists(atPath: glassPath))
    }
}

@Suite(.tags(.endToEnd)) struct BackEndCommandLineTests {
    func run(_ arguments: [String]) throws -> (status: Int32, standardError: String) {
        let process = Process()
        process.executableURL = crownPagerExecutable().deletingLastPathComponent()
            .appendingPathComponent("crownpager-vhost-i2c")
        process.arguments = arguments
        let standardError = Pipe()
        process.standardError = standardError
        process.standardOutput = Pipe()
        try process.run()
        let text = String(decoding: standardError.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test func wrongArgumentsAreUsageErrors() throws {
        let address = try run(["--socket", "/tmp/unused.sock", "--glass", "/tmp/unused.pbm", "--address", "0x99"])
        #expect(address.status == 64)
        #expect(address.standardError.contains("--address 0x99 is not a 7-bit I2C address"))
        let panel = try run(["--socket", "/tmp/unused.sock", "--glass", "/tmp/unused.pbm", "--panel", "st7735"])
        #expect(panel.status == 64)
        #expect(panel.standardError.contains("sh1106-128x64"))
        #expect(try run(["--glass", "/tmp/unused.pbm"]).status == 64)
    }

    @Test func aSocketItCannotMakeSaysWhereAndWhy() throws {
        let scratch = try ScratchDirectory()
        let missing = try run(["--socket", scratch.path + "/no/such/folder.sock", "--glass", scratch.path + "/g.pbm"])
        #expect(missing.status == 73)
        #expect(missing.standardError.contains("bind \(scratch.path)/no/such/folder.sock failed"))
        #expect(missing.standardError.contains("ENOENT"))
        let file = scratch.path + "/taken"
        #expect(FileManager.default.createFile(atPath: file, contents: Data([1])))
        let taken = try run(["--socket", file, "--glass", scratch.path + "/g.pbm"])
        #expect(taken.status == 73)
        #expect(taken.standardError.contains("\(file) exists and is not a socket"))
        #expect(FileManager.default.contents(atPath: file) == Data([1]))
    }
}
