import PagerGraphics
import SSD1306
import Testing
import VhostUserI2C

/// A back-end set up as QEMU sets it up, over array memory with one region, and the driver's ring in it.
struct Rig {
    static let region = MemoryRegion(
        guestPhysicalAddress: 0x10_0000, size: 0x4_0000, userAddress: 0x7F00_0000_0000, mmapOffset: 0)
    let memory = ArrayGuestMemory(regions: [Rig.region])
    var ring: DriverRing<ArrayGuestMemory>
    var backend = VhostUserI2CBackend(emulator: SSD1306Emulator())

    init(size: UInt16 = 4) {
        ring = DriverRing(memory: memory, size: size, base: Rig.region.guestPhysicalAddress)
        let toUser = Rig.region.userAddress - Rig.region.guestPhysicalAddress
        let commands: [VhostUserCommand] = [
            .setFeatures(VhostUserI2CBackend.offeredFeatures), .setMemoryTable([Rig.region]), .setVringNum(size),
            .setVringBase(0),
            .setVringAddress(
                VringAddress(
                    descriptorTable: ring.descriptorTable + toUser, usedRing: ring.usedRing + toUser,
                    availableRing: ring.availableRing + toUser)),
            .setVringKick(hasFileDescriptor: true), .setVringEnable(true),
        ]
        for command in commands { _ = backend.respond(to: command) }
    }

    /// Processes the queue as a kick would; returns how many chains were used.
    mutating func kick() throws(VirtqueueError) -> Int { try backend.processQueue(memory) }
}

@Suite struct VirtqueueTests {
    @Test func aFrameThroughTheRingReachesTheGlass() throws {
        var rig = Rig(size: 4)
        var reference = SSD1306Emulator()
        for transfer in initializationAndFrame(testFrame()) {
            let status = rig.ring.addMessage(to: 0x3C, write: transfer.bytes)
            #expect(try rig.kick() == 1)
            #expect(rig.ring.byte(at: status.status) == 0)
            reference.write(transfer.bytes, to: transfer.address)
        }
        #expect(rig.backend.emulator.glass == testFrame())
        #expect(rig.backend.emulator.glass == reference.glass)
        #expect(rig.backend.emulator.diagnostics.isEmpty)
        #expect(rig.ring.usedIndex == rig.ring.availableIndex)
    }

    @Test func indirectTablesCarryATransferOfFourMessages() throws {
        var rig = Rig(size: 4)
        // Four 3-descriptor messages need 12 descriptors: only indirect tables fit them in a queue of 4.
        let statuses = (0..<4).map { index in
            rig.ring.addMessage(to: 0x3C, write: [0x00, 0xAE + UInt8(index % 2)], failNext: index < 3, indirect: true)
        }
        #expect(try rig.kick() == 4)
        #expect(statuses.map { rig.ring.byte(at: $0.status) } == [0, 0, 0, 0])
        #expect((0..<4).map { rig.ring.used($0).length } == [1, 1, 1, 1])
        #expect(rig.backend.emulator.registers.isDisplayOn)
        #expect(rig.backend.answered == 4)
    }

    @Test func otherAddressesAreNACKedAndFailNextFailsTheRestOfTheTransfer() throws {
        var rig = Rig(size: 8)
        let first = rig.ring.addMessage(to: 0x3D, write: [0x00, 0xAF], failNext: true, indirect: true)
        let second = rig.ring.addMessage(to: 0x3C, write: [0x00, 0xAF], failNext: true, indirect: true)
        let last = rig.ring.addMessage(to: 0x3C, write: [0x00, 0xAF], indirect: true)
        // The next transfer starts afresh.
        let next = rig.ring.addMessage(to: 0x3C, write: [0x00, 0xA7], indirect: true)
        #expect(try rig.kick() == 4)
        #expect([first, second, last, next].map { rig.ring.byte(at: $0.status) } == [1, 1, 1, 0])
        #expect(!rig.backend.emulator.registers.isDisplayOn)
        #expect(rig.backend.emulator.registers.isInverse)
        #expect(rig.backend.emulator.transactionCount == 1)
        #expect(rig.backend.failed == 3)
    }

    @Test func aFailureWithoutFailNextLeavesTheNextMessageAlone() throws {
        var rig = Rig(size: 8)
        let nack = rig.ring.addMessage(to: 0x50, write: [1])
        let answered = rig.ring.addMessage(to: 0x3C, write: [0x00, 0xAF])
        #expect(try rig.kick() == 2)
        #expect([nack, answered].map { rig.ring.byte(at: $0.status) } == [1, 0])
    }

    @Test func anAbsentPanelNACKsEverythingUntilItComesBack() throws {
        var rig = Rig(size: 8)
        rig.backend.isAbsent = true
        let zeroLength = rig.ring.addMessage(to: 0x3C)
        let write = rig.ring.addMessage(to: 0x3C, write: [0x00, 0xAF])
        #expect(try rig.kick() == 2)
        #expect([zeroLength, write].map { rig.ring.byte(at: $0.status) } == [1, 1])
        #expect(!rig.backend.emulator.registers.isDisplayOn)
        rig.backend.isAbsent = false
        let again = rig.ring.addMessage(to: 0x3C, write: [0x00, 0xAF])
        #expect(try rig.kick() == 1)
        #expect(rig.ring.byte(at: again.status) == 0)
        #expect(rig.backend.emulator.registers.isDisplayOn)
    }

    @Test func aZeroLengthMessageIsACKedAtThePanelOnly() throws {
        var rig = Rig(size: 8)
        let panel = rig.ring.addMessage(to: 0x3C)
        let nobody = rig.ring.addMessage(to: 0x3D)
        #expect(try rig.kick() == 2)
        #expect([panel, nobody].map { rig.ring.byte(at: $0.status) } == [0, 1])
    }

    @Test func aReadReturnsTheStatusRegister() throws {
        var rig = Rig(size: 8)
        let read = rig.ring.addMessage(to: 0x3C, readLength: 3)
        #expect(try rig.kick() == 1)
        // Display off: bit 6 set; the SSD1306's low nibble 06h.
        #expect(rig.memory.load(3, at: read.readData) == [0x46, 0x46, 0x46])
        #expect(rig.ring.byte(at: read.status) == 0)
        #expect(rig.ring.used(0).length == 4)
    }

    @Test func theRingWaitsForKickAndEnable() throws {
        var rig = Rig(size: 4)
        _ = rig.backend.respond(to: .setVringEnable(false))
        rig.ring.addMessage(to: 0x3C, write: [0x00, 0xAF])
        #expect(try rig.kick() == 0)
        _ = rig.backend.respond(to: .setVringEnable(true))
        #expect(try rig.kick() == 1)
    }

    @Test func getVringBaseStopsTheRingAndSaysWhereItWas() throws {
        var rig = Rig(size: 4)
        rig.ring.addMessage(to: 0x3C, write: [0x00, 0xAF])
        rig.ring.addMessage(to: 0x3C, write: [0x00, 0xAE])
        #expect(try rig.kick() == 2)
        let reply = rig.backend.respond(to: .getVringBase)
        let expected: [UInt8] = [11, 0, 0, 0, 5, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0]
        #expect(reply == expected)
        rig.ring.addMessage(to: 0x3C, write: [0x00, 0xAF])
        #expect(try rig.kick() == 0)
        // A restart from that base serves what came meanwhile.
        _ = rig.backend.respond(to: .setVringBase(2))
        _ = rig.backend.respond(to: .setVringKick(hasFileDescriptor: true))
        #expect(try rig.kick() == 1)
        #expect(rig.ring.usedIndex == 3)
    }
}
