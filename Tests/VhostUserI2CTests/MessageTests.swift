import Testing
import VhostUserI2C

@Suite struct MessageTests {
    func message(_ request: UInt32, _ payload: [UInt8], descriptors: Int = 0) -> VhostUserMessage {
        VhostUserMessage(
            header: VhostUserHeader(request: request, flags: 1, payloadSize: UInt32(payload.count)), payload: payload,
            fileDescriptorCount: descriptors)
    }

    @Test func theFeaturesOfferedAreTheOnesQEMUAndLinuxNeed() throws {
        var backend = VhostUserI2CBackend(emulator: .init())
        let reply = backend.respond(to: try message(1, []).command())
        // Whole literals with their type, not sums: Swift 6.0.3's type checker spends minutes on those.
        let features: [UInt8] = [1, 0, 0, 0, 5, 0, 0, 0, 8, 0, 0, 0, 0x01, 0, 0, 0x40, 0x01, 0, 0, 0]
        #expect(reply == features)
        let protocolFeatures: [UInt8] = [15, 0, 0, 0, 5, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        #expect(backend.respond(to: .getProtocolFeatures) == protocolFeatures)
        #expect(backend.respond(to: .setOwner) == nil)
    }

    @Test func aHeaderDecodesAndEncodes() throws {
        let bytes: [UInt8] = [5, 0, 0, 0, 1, 0, 0, 0, 0x28, 0, 0, 0]
        let header = try VhostUserHeader(decoding: bytes)
        #expect(header == VhostUserHeader(request: 5, flags: 1, payloadSize: 40))
        #expect(header.bytes == bytes)
    }

    @Test func aHeaderWithoutVersion1OrWithAHugePayloadLosesFraming() throws {
        #expect(throws: VhostUserError.unsupportedVersion(flags: 2)) {
            try VhostUserHeader(decoding: [1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0])
        }
        #expect(throws: VhostUserError.payloadTooLarge(request: 5, size: 0x1_0000)) {
            try VhostUserHeader(decoding: [5, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0])
        }
        #expect(VhostUserError.payloadTooLarge(request: 5, size: 0x1_0000).losesFraming)
        #expect(!VhostUserError.unsupportedRequest(99).losesFraming)
    }

    @Test func theMemoryTableDecodesOneRegionPerDescriptor() throws {
        let regionParts: [[UInt8]] = [
            .le(UInt64(0x10_0000)), .le(UInt64(0x4000)), .le(UInt64(0x7F00_0000_0000)), .le(UInt64(0x1000)),
        ]
        let region = Array(regionParts.joined())
        let payloadParts: [[UInt8]] = [.le(UInt32(2)), [0, 0, 0, 0], region, region]
        let payload = Array(payloadParts.joined())
        #expect(
            try message(5, payload, descriptors: 2).command()
                == .setMemoryTable(
                    Array(
                        repeating: MemoryRegion(
                            guestPhysicalAddress: 0x10_0000, size: 0x4000, userAddress: 0x7F00_0000_0000,
                            mmapOffset: 0x1000), count: 2)))
        #expect(throws: VhostUserError.regionCount(regions: 2, fileDescriptors: 1)) {
            try message(5, payload, descriptors: 1).command()
        }
        #expect(throws: VhostUserError.payloadTooShort(request: .setMemoryTable, size: 40, needed: 72)) {
            try message(5, Array(payload.prefix(40)), descriptors: 2).command()
        }
        let wrappingParts: [[UInt8]] = [
            .le(UInt32(1)), [0, 0, 0, 0], .le(UInt64.max), .le(UInt64(2)), .le(UInt64(0)), .le(UInt64(0)),
        ]
        let wrapping = Array(wrappingParts.joined())
        #expect(throws: VhostUserError.invalidRegion(index: 0)) { try message(5, wrapping, descriptors: 1).command() }
    }

    @Test func vringMessagesNameQueue0AndAValidSize() throws {
        #expect(try message(8, .le(UInt32(0)) + .le(UInt32(4))).command() == .setVringNum(4))
        #expect(throws: VhostUserError.invalidQueueSize(3)) {
            try message(8, .le(UInt32(0)) + .le(UInt32(3))).command()
        }
        #expect(throws: VhostUserError.invalidQueueSize(0)) {
            try message(8, .le(UInt32(0)) + .le(UInt32(0))).command()
        }
        #expect(throws: VhostUserError.noSuchQueue(request: .setVringNum, index: 1)) {
            try message(8, .le(UInt32(1)) + .le(UInt32(4))).command()
        }
        #expect(throws: VhostUserError.payloadTooShort(request: .setVringBase, size: 4, needed: 8)) {
            try message(10, .le(UInt32(0))).command()
        }
        let addressParts: [[UInt8]] = [
            .le(UInt32(0)), .le(UInt32(0)), .le(UInt64(1)), .le(UInt64(2)), .le(UInt64(3)), .le(UInt64(0)),
        ]
        let address = Array(addressParts.joined())
        #expect(
            try message(9, address).command()
                == .setVringAddress(VringAddress(descriptorTable: 1, usedRing: 2, availableRing: 3)))
        #expect(throws: VhostUserError.payloadTooShort(request: .setVringAddress, size: 20, needed: 40)) {
            try message(9, Array(address.prefix(20))).command()
        }
    }

    @Test func kickAndCallSayWhetherADescriptorCame() throws {
        #expect(try message(12, .le(UInt64(0)), descriptors: 1).command() == .setVringKick(hasFileDescriptor: true))
        #expect(
            try message(12, .le(UInt64(0x100)), descriptors: 0).command() == .setVringKick(hasFileDescriptor: false))
        #expect(try message(13, .le(UInt64(0)), descriptors: 1).command() == .setVringCall(hasFileDescriptor: true))
        #expect(try message(14, .le(UInt64(0)), descriptors: 0).command() == .setVringErr(hasFileDescriptor: false))
        #expect(throws: VhostUserError.noSuchQueue(request: .setVringKick, index: 2)) {
            try message(12, .le(UInt64(2)), descriptors: 1).command()
        }
    }

    @Test func unknownRequestsAreRefusedByNumber() throws {
        #expect(throws: VhostUserError.unsupportedRequest(36)) { try message(36, []).command() }
        #expect(VhostUserError.unsupportedRequest(36).description.contains("36"))
    }
}
