import SSD1306
import TestSupport
import Testing
import VhostUserI2C

/// A broken guest driver or front-end never crashes the back-end: a chain is given back failed,
/// a broken ring stops the queue, a bad message is refused with what was wrong.
@Suite struct MalformedInputTests {
    @Test func aLoopingChainIsGivenBackAndTheNextIsServed() throws {
        var rig = Rig(size: 4)
        // Descriptor 0 names itself as next.
        let header = rig.ring.allocate([0x78, 0, 0, 0, 0, 0, 0, 0])
        rig.ring.writeDescriptor(at: rig.ring.descriptorTable, 0, address: header, length: 8, flags: 1, next: 0)
        rig.ring.publish(0)
        #expect(try rig.kick() == 1)
        #expect(rig.ring.used(0).head == 0)
        #expect(rig.ring.used(0).length == 0)
        #expect(rig.backend.failed == 1)
        let next = rig.ring.addMessage(to: 0x3C, write: [0x00, 0xAF])
        #expect(try rig.kick() == 1)
        #expect(rig.ring.byte(at: next.status) == 0)
    }

    @Test func aHeadOrNextPastTheTableIsGivenBackFailed() throws {
        var rig = Rig(size: 4)
        rig.ring.publish(9)
        let header = rig.ring.allocate([0x78, 0, 0, 0, 0, 0, 0, 0])
        rig.ring.writeDescriptor(at: rig.ring.descriptorTable, 1, address: header, length: 8, flags: 1, next: 200)
        rig.ring.publish(1)
        #expect(try rig.kick() == 2)
        #expect(rig.ring.used(0).length == 0)
        #expect(rig.ring.used(1).length == 0)
        #expect(rig.backend.emulator.transactionCount == 0)
    }

    @Test(arguments: [(0, 4), (24, 4), (16, 4 | 1), (16 * 4096, 4)] as [(UInt32, UInt16)])
    func invalidIndirectTablesAreRefused(length: UInt32, flags: UInt16) throws {
        var rig = Rig(size: 4)
        let table = rig.ring.allocate([UInt8](repeating: 0, count: 64))
        rig.ring.writeDescriptor(at: rig.ring.descriptorTable, 0, address: table, length: length, flags: flags, next: 1)
        rig.ring.publish(0)
        #expect(try rig.kick() == 1)
        #expect(rig.ring.used(0).length == 0)
    }

    @Test func aNestedIndirectTableIsRefused() throws {
        var rig = Rig(size: 4)
        let inner = rig.ring.allocate([UInt8](repeating: 0, count: 16))
        let outer = rig.ring.allocate([UInt8](repeating: 0, count: 16))
        rig.ring.writeDescriptor(at: outer, 0, address: inner, length: 16, flags: 4, next: 0)
        rig.ring.writeDescriptor(at: rig.ring.descriptorTable, 0, address: outer, length: 16, flags: 4, next: 0)
        rig.ring.publish(0)
        #expect(try rig.kick() == 1)
        #expect(rig.ring.used(0).length == 0)
    }

    @Test func buffersOutsideMemoryFailTheMessageOnly() throws {
        var rig = Rig(size: 8)
        let status = rig.ring.allocate([0xEE])
        // The header lies past the region's end.
        rig.ring.add([(address: 0xFFFF_FFFF_FFFF_FFF0, length: 8, writable: false), (status, 1, true)])
        #expect(try rig.kick() == 1)
        #expect(rig.ring.byte(at: status) == 1)
        #expect(rig.ring.used(0).length == 1)
    }

    @Test func aReadableBufferAfterAWritableOneIsRefused() throws {
        var rig = Rig(size: 8)
        let status = rig.ring.allocate([0xEE])
        let header = rig.ring.allocate([0x78, 0, 0, 0, 0, 0, 0, 0])
        rig.ring.add([(status, 1, true), (header, 8, false)])
        #expect(try rig.kick() == 1)
        #expect(rig.ring.used(0).length == 0)
        #expect(rig.ring.byte(at: status) == 0xEE)
    }

    @Test func aShortHeaderOrAReadWithDataIsNACKed() throws {
        var rig = Rig(size: 8)
        let short = rig.ring.allocate([0x78, 0, 0])
        let status1 = rig.ring.allocate([0xEE])
        rig.ring.add([(short, 3, false), (status1, 1, true)])
        let readHeader = rig.ring.allocate([0x78, 0, 0, 0, 2, 0, 0, 0])
        let data = rig.ring.allocate([0x00, 0xAF])
        let status2 = rig.ring.allocate([0xEE])
        rig.ring.add([(readHeader, 8, false), (data, 2, false), (status2, 1, true)])
        #expect(try rig.kick() == 2)
        #expect(rig.ring.byte(at: status1) == 1)
        #expect(rig.ring.byte(at: status2) == 1)
        #expect(!rig.backend.emulator.registers.isDisplayOn)
    }

    @Test func aMessageLongerThanI2CAllowsIsNACKedWithoutReadingIt() throws {
        var rig = Rig(size: 8)
        let header = rig.ring.allocate([0x78, 0, 0, 0, 0, 0, 0, 0])
        let status = rig.ring.allocate([0xEE])
        rig.ring.add([(header, 8, false), (header, 0xFFFF_FFF0, false), (status, 1, true)])
        #expect(try rig.kick() == 1)
        #expect(rig.ring.byte(at: status) == 1)
    }

    @Test func anAvailableIndexRunningAheadBreaksTheQueue() throws {
        var rig = Rig(size: 4)
        #expect(rig.memory.store([9, 0], at: rig.ring.availableRing + 2))
        #expect(throws: VirtqueueError.availableIndexRunaway(available: 9, lastSeen: 0, size: 4)) { try rig.kick() }
    }

    @Test func ringAddressesOutsideTheMemoryTableLeaveTheQueueNotReady() throws {
        var rig = Rig(size: 4)
        _ = rig.backend.respond(
            to: .setVringAddress(VringAddress(descriptorTable: 0x10, usedRing: 0x20, availableRing: 0x30)))
        #expect(throws: VirtqueueError.notReady) { try rig.kick() }
    }

    @Test(.tags(.slow)) func randomMemoryNeverCrashesTheWalk() throws {
        var generator = SeededGenerator(seed: 0x5EED)
        for _ in 0..<300 {
            var rig = Rig(size: 4)
            // Random descriptor table, rings and some buffers: whatever comes back, nothing traps.
            let noise = (0..<0x3100).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(rig.memory.store(noise, at: Rig.region.guestPhysicalAddress))
            // Keep the available index within a queue's worth sometimes, so chains get walked.
            if Bool.random(using: &generator) {
                #expect(
                    rig.memory.store([UInt8.random(in: 0...4, using: &generator), 0], at: rig.ring.availableRing + 2))
            }
            do {
                let used = try rig.kick()
                #expect(used <= 4)
                #expect(rig.backend.answered + rig.backend.failed >= used)
            } catch {
                #expect(error.description.isEmpty == false)
            }
        }
    }
}
