/// The vhost-user requests this back-end knows, by their numbers in QEMU's docs/interop/vhost-user.rst.
public enum VhostUserRequest: UInt32, Hashable, Sendable, CustomStringConvertible {
    case getFeatures = 1
    case setFeatures = 2
    case setOwner = 3
    case resetOwner = 4
    case setMemoryTable = 5
    case setVringNum = 8
    case setVringAddress = 9
    case setVringBase = 10
    case getVringBase = 11
    case setVringKick = 12
    case setVringCall = 13
    case setVringErr = 14
    case getProtocolFeatures = 15
    case setProtocolFeatures = 16
    case getQueueNum = 17
    case setVringEnable = 18

    /// The name the specification gives it, e.g. `SET_MEM_TABLE`.
    public var description: String {
        switch self {
        case .getFeatures: return "GET_FEATURES"
        case .setFeatures: return "SET_FEATURES"
        case .setOwner: return "SET_OWNER"
        case .resetOwner: return "RESET_OWNER"
        case .setMemoryTable: return "SET_MEM_TABLE"
        case .setVringNum: return "SET_VRING_NUM"
        case .setVringAddress: return "SET_VRING_ADDR"
        case .setVringBase: return "SET_VRING_BASE"
        case .getVringBase: return "GET_VRING_BASE"
        case .setVringKick: return "SET_VRING_KICK"
        case .setVringCall: return "SET_VRING_CALL"
        case .setVringErr: return "SET_VRING_ERR"
        case .getProtocolFeatures: return "GET_PROTOCOL_FEATURES"
        case .setProtocolFeatures: return "SET_PROTOCOL_FEATURES"
        case .getQueueNum: return "GET_QUEUE_NUM"
        case .setVringEnable: return "SET_VRING_ENABLE"
        }
    }
}

/// The header every vhost-user message starts with: `u32 request, u32 flags, u32 size`.
public struct VhostUserHeader: Hashable, Sendable {
    /// The header's length on the wire.
    public static let size = 12
    /// Flags bits 0-1: the protocol version, 1.
    static let version: UInt32 = 0x1
    /// Flags bit 2: the message is a reply.
    static let reply: UInt32 = 0x4

    /// The request number.
    public var request: UInt32
    /// Version and reply bits.
    public var flags: UInt32
    /// The payload's length in bytes.
    public var payloadSize: UInt32

    /// A header with these fields.
    public init(request: UInt32, flags: UInt32, payloadSize: UInt32) {
        self.request = request
        self.flags = flags
        self.payloadSize = payloadSize
    }

    /// Decodes the first 12 bytes; checks the version and that the payload size is one this back-end reads.
    public init(decoding bytes: [UInt8]) throws(VhostUserError) {
        guard let request = bytes.littleEndian(UInt32.self, at: 0), let flags = bytes.littleEndian(UInt32.self, at: 4),
            let size = bytes.littleEndian(UInt32.self, at: 8)
        else { throw .unsupportedVersion(flags: 0) }
        guard flags & 0x3 == Self.version else { throw .unsupportedVersion(flags: flags) }
        guard size <= VhostUserMessage.maximumPayloadSize else { throw .payloadTooLarge(request: request, size: size) }
        self.init(request: request, flags: flags, payloadSize: size)
    }

    /// The 12 bytes on the wire.
    public var bytes: [UInt8] { .littleEndian(request) + .littleEndian(flags) + .littleEndian(payloadSize) }
}

/// One vhost-user message as read from the socket: header, payload and how many file
/// descriptors came with it (SCM_RIGHTS); the descriptors themselves stay with the caller.
public struct VhostUserMessage: Hashable, Sendable {
    /// The largest payload read: SET_MEM_TABLE with 8 regions is 264 bytes; the rest are smaller.
    public static let maximumPayloadSize: UInt32 = 4096
    /// Bit 8 of a SET_VRING_KICK, _CALL or _ERR payload: no file descriptor comes with it.
    static let noFileDescriptor: UInt64 = 0x100

    /// The header.
    public var header: VhostUserHeader
    /// The payload, `header.payloadSize` bytes.
    public var payload: [UInt8]
    /// The number of file descriptors received with it.
    public var fileDescriptorCount: Int

    /// A message as received.
    public init(header: VhostUserHeader, payload: [UInt8], fileDescriptorCount: Int = 0) {
        self.header = header
        self.payload = payload
        self.fileDescriptorCount = fileDescriptorCount
    }

    /// What the message asks for, its payload decoded and checked.
    public func command() throws(VhostUserError) -> VhostUserCommand {
        guard let request = VhostUserRequest(rawValue: header.request) else {
            throw .unsupportedRequest(header.request)
        }
        switch request {
        case .getFeatures: return .getFeatures
        case .setFeatures: return .setFeatures(try u64(request))
        case .setOwner: return .setOwner
        case .resetOwner: return .resetOwner
        case .getProtocolFeatures: return .getProtocolFeatures
        case .setProtocolFeatures: return .setProtocolFeatures(try u64(request))
        case .getQueueNum: return .getQueueNum
        case .setMemoryTable: return .setMemoryTable(try memoryRegions())
        case .setVringNum:
            let (index, size) = try vringState(request)
            guard size > 0, size <= 32768, size & (size - 1) == 0 else { throw .invalidQueueSize(size) }
            return .setVringNum(UInt16(size))
        case .setVringBase:
            let (_, base) = try vringState(request)
            // The index is 16 bits in a split ring; the upper bits carry packed-ring wrap counters.
            return .setVringBase(UInt16(truncatingIfNeeded: base))
        case .getVringBase:
            _ = try vringState(request)
            return .getVringBase
        case .setVringEnable:
            let (_, enable) = try vringState(request)
            return .setVringEnable(enable != 0)
        case .setVringAddress: return .setVringAddress(try vringAddress())
        case .setVringKick, .setVringCall, .setVringErr:
            let value = try u64(request)
            let index = UInt32(truncatingIfNeeded: value & 0xFF)
            guard index == 0 else { throw .noSuchQueue(request: request, index: index) }
            let carriesDescriptor = value & Self.noFileDescriptor == 0 && fileDescriptorCount > 0
            switch request {
            case .setVringKick: return .setVringKick(hasFileDescriptor: carriesDescriptor)
            case .setVringCall: return .setVringCall(hasFileDescriptor: carriesDescriptor)
            default: return .setVringErr(hasFileDescriptor: carriesDescriptor)
            }
        }
    }

    private func u64(_ request: VhostUserRequest) throws(VhostUserError) -> UInt64 {
        guard let value = payload.littleEndian(UInt64.self, at: 0) else {
            throw .payloadTooShort(request: request, size: payload.count, needed: 8)
        }
        return value
    }

    /// `struct vhost_vring_state { u32 index; u32 num; }`, for vring 0.
    private func vringState(_ request: VhostUserRequest) throws(VhostUserError) -> (UInt32, UInt32) {
        guard let index = payload.littleEndian(UInt32.self, at: 0), let value = payload.littleEndian(UInt32.self, at: 4)
        else { throw .payloadTooShort(request: request, size: payload.count, needed: 8) }
        guard index == 0 else { throw .noSuchQueue(request: request, index: index) }
        return (index, value)
    }

    /// `struct vhost_vring_addr { u32 index, flags; u64 desc, used, avail, log; }`.
    private func vringAddress() throws(VhostUserError) -> VringAddress {
        guard let index = payload.littleEndian(UInt32.self, at: 0),
            let descriptors = payload.littleEndian(UInt64.self, at: 8),
            let used = payload.littleEndian(UInt64.self, at: 16),
            let available = payload.littleEndian(UInt64.self, at: 24)
        else { throw .payloadTooShort(request: .setVringAddress, size: payload.count, needed: 40) }
        guard index == 0 else { throw .noSuchQueue(request: .setVringAddress, index: index) }
        return VringAddress(descriptorTable: descriptors, usedRing: used, availableRing: available)
    }

    /// `u32 nregions, u32 padding`, then per region `u64 guest_phys_addr, memory_size, userspace_addr, mmap_offset`.
    private func memoryRegions() throws(VhostUserError) -> [MemoryRegion] {
        guard let count = payload.littleEndian(UInt32.self, at: 0) else {
            throw .payloadTooShort(request: .setMemoryTable, size: payload.count, needed: 8)
        }
        guard count <= MemoryRegion.maximumCount, Int(count) == fileDescriptorCount else {
            throw .regionCount(regions: count, fileDescriptors: fileDescriptorCount)
        }
        let needed = 8 + Int(count) * 32
        guard payload.count >= needed else {
            throw .payloadTooShort(request: .setMemoryTable, size: payload.count, needed: needed)
        }
        var regions: [MemoryRegion] = []
        for index in 0..<Int(count) {
            let base = 8 + index * 32
            // The guard above makes every field present; the fallbacks only keep this free of force unwraps.
            let region = MemoryRegion(
                guestPhysicalAddress: payload.littleEndian(UInt64.self, at: base) ?? 0,
                size: payload.littleEndian(UInt64.self, at: base + 8) ?? 0,
                userAddress: payload.littleEndian(UInt64.self, at: base + 16) ?? 0,
                mmapOffset: payload.littleEndian(UInt64.self, at: base + 24) ?? 0)
            guard region.isValid else { throw .invalidRegion(index: index) }
            regions.append(region)
        }
        return regions
    }

    /// A reply to `request` carrying `payload`: version 1 with the reply bit.
    public static func reply(to request: VhostUserRequest, payload: [UInt8]) -> [UInt8] {
        let header = VhostUserHeader(
            request: request.rawValue, flags: VhostUserHeader.version | VhostUserHeader.reply,
            payloadSize: UInt32(payload.count))
        return header.bytes + payload
    }
}

/// A vhost-user request decoded, its payload checked.
public enum VhostUserCommand: Hashable, Sendable {
    case getFeatures
    case setFeatures(UInt64)
    case setOwner
    case resetOwner
    case getProtocolFeatures
    case setProtocolFeatures(UInt64)
    case getQueueNum
    /// The guest's memory: one region per file descriptor sent with the message, in order.
    case setMemoryTable([MemoryRegion])
    case setVringNum(UInt16)
    case setVringBase(UInt16)
    case getVringBase
    case setVringAddress(VringAddress)
    case setVringEnable(Bool)
    /// The eventfd the front-end writes when the driver has added buffers.
    case setVringKick(hasFileDescriptor: Bool)
    /// The eventfd the back-end writes when it has used buffers (the guest's interrupt).
    case setVringCall(hasFileDescriptor: Bool)
    /// The eventfd for reporting a broken ring.
    case setVringErr(hasFileDescriptor: Bool)
}

/// SET_VRING_ADDR's three ring addresses, in the front-end's (QEMU's) virtual address space.
public struct VringAddress: Hashable, Sendable {
    /// The descriptor table.
    public var descriptorTable: UInt64
    /// The used ring.
    public var usedRing: UInt64
    /// The available ring.
    public var availableRing: UInt64

    /// The three addresses.
    public init(descriptorTable: UInt64, usedRing: UInt64, availableRing: UInt64) {
        self.descriptorTable = descriptorTable
        self.usedRing = usedRing
        self.availableRing = availableRing
    }
}
