import SSD1306

/// A virtio-i2c device behind vhost-user, with an SSD1306 emulator at one address: it keeps the
/// negotiated state from the front-end's messages, walks the request queue when kicked and
/// answers each I2C message as the panel would, or NACKs it (another address; `isAbsent`).
///
/// Pure: file descriptors, mappings and eventfds are the caller's; it sees the guest's RAM
/// through `GuestMemory` and says which replies to send.
public struct VhostUserI2CBackend: Sendable {
    /// VIRTIO_F_VERSION_1 (32) | VHOST_USER_F_PROTOCOL_FEATURES (30) | VIRTIO_I2C_F_ZERO_LENGTH_REQUEST (0).
    /// The Linux driver refuses a device without zero-length requests; QEMU 7.2 aborts without bit 30.
    public static let offeredFeatures: UInt64 = 1 << 32 | 1 << 30 | 1 << 0
    static let protocolFeaturesBit: UInt64 = 1 << 30

    /// The panel at the device's address.
    public var emulator: SSD1306Emulator
    /// While true the device NACKs every message, as a panel that lost power or came off the bus.
    public var isAbsent = false
    /// The features the front-end acknowledged (SET_FEATURES).
    public private(set) var acknowledgedFeatures: UInt64 = 0
    /// The guest's memory as the last SET_MEM_TABLE gave it.
    public private(set) var regions: [MemoryRegion] = []
    /// Messages answered with status OK, and failed (NACKed, malformed, or failed with the one before).
    public private(set) var answered = 0, failed = 0

    private var ring = SplitVirtqueue(size: 0, descriptorTable: 0, availableRing: 0, usedRing: 0)
    private var userAddresses: VringAddress?
    private var isTranslated = false
    private var isEnabledByFrontEnd = false
    /// Whether the front-end has sent the kick eventfd and not stopped the ring since.
    private var isStarted = false
    /// Whether the next request fails because the one before failed with FAIL_NEXT.
    private var failsNextRequest = false

    /// A device whose panel is `emulator`.
    public init(emulator: SSD1306Emulator) { self.emulator = emulator }

    /// Whether kicks are served: the ring is started, and enabled (it starts enabled unless
    /// VHOST_USER_F_PROTOCOL_FEATURES was negotiated, then SET_VRING_ENABLE decides).
    public var isRunning: Bool {
        isStarted && (acknowledgedFeatures & Self.protocolFeaturesBit == 0 || isEnabledByFrontEnd)
    }

    /// Updates the state for `command`; returns the reply to send, nil for a request that takes none.
    public mutating func respond(to command: VhostUserCommand) -> [UInt8]? {
        switch command {
        case .getFeatures: return VhostUserMessage.reply(to: .getFeatures, payload: .littleEndian(Self.offeredFeatures))
        case .setFeatures(let features): acknowledgedFeatures = features & Self.offeredFeatures
        case .getProtocolFeatures:
            // None: the back-end needs no reply acknowledgements, slave channel or configuration space.
            return VhostUserMessage.reply(to: .getProtocolFeatures, payload: .littleEndian(UInt64(0)))
        case .setProtocolFeatures, .setOwner, .setVringErr: break
        case .getQueueNum: return VhostUserMessage.reply(to: .getQueueNum, payload: .littleEndian(UInt64(1)))
        case .resetOwner:
            self = VhostUserI2CBackend(emulator: emulator)
        case .setMemoryTable(let table):
            regions = table
            isTranslated = false
        case .setVringNum(let size):
            ring.size = size
        case .setVringBase(let base):
            ring.lastAvailableIndex = base
            ring.usedIndex = base
        case .setVringAddress(let addresses):
            userAddresses = addresses
            isTranslated = false
        case .setVringEnable(let enable): isEnabledByFrontEnd = enable
        case .setVringKick(let hasFileDescriptor): isStarted = hasFileDescriptor
        case .setVringCall: break
        case .getVringBase:
            // Stops the ring; the reply is where the next start picks up.
            isStarted = false
            failsNextRequest = false
            let state = [UInt8].littleEndian(UInt32(0)) + .littleEndian(UInt32(ring.lastAvailableIndex))
            return VhostUserMessage.reply(to: .getVringBase, payload: state)
        }
        return nil
    }

    /// Serves every request the driver has made available; returns how many it put in the used
    /// ring (the caller signals the call eventfd when that is above 0 and the driver wants it).
    /// Throws when the ring itself is unreadable: the queue is broken until the front-end sets it up again.
    public mutating func processQueue(_ memory: some GuestMemory) throws(VirtqueueError) -> Int {
        guard isRunning else { return 0 }
        try translateRing()
        var used = 0
        while let head = try ring.nextAvailableHead(in: memory) {
            let written: UInt32
            do throws(VirtqueueError) {
                written = serve(try ring.chain(at: head, in: memory), in: memory)
            } catch {
                // A malformed chain is given back with nothing written, so the driver is not left waiting.
                failed += 1
                failsNextRequest = false
                written = 0
            }
            try ring.pushUsed(head: head, length: written, in: memory)
            used += 1
        }
        return used
    }

    /// Whether the driver asked for interrupts on used buffers.
    public func wantsInterrupt(_ memory: some GuestMemory) -> Bool { ring.wantsInterrupt(in: memory) }

    private mutating func translateRing() throws(VirtqueueError) {
        guard !isTranslated else { return }
        guard ring.size > 0, let user = userAddresses, let table = regions.guestPhysical(ofUser: user.descriptorTable),
            let available = regions.guestPhysical(ofUser: user.availableRing),
            let used = regions.guestPhysical(ofUser: user.usedRing)
        else { throw .notReady }
        ring.descriptorTable = table
        ring.availableRing = available
        ring.usedRing = used
        isTranslated = true
    }

    /// Answers one request; returns the bytes written to the device-writable buffers.
    mutating func serve(_ chain: DescriptorChain, in memory: some GuestMemory) -> UInt32 {
        let readable = chain.buffers.filter { !$0.isWritable }
        let writable = chain.buffers.filter { $0.isWritable && $0.length > 0 }
        let writableLength = writable.reduce(0) { $0 + Int($1.length) }
        guard let statusBuffer = writable.last else {
            // Nowhere to put a status: nothing can be answered.
            failed += 1
            failsNextRequest = false
            return 0
        }
        let request = Self.gather(readable, in: memory).flatMap {
            VirtioI2CRequest(readable: $0, writable: writableLength)
        }
        var reply: [UInt8] = []
        var status = VirtioI2CStatus.error
        if let request, !failsNextRequest, !isAbsent, request.address == emulator.address {
            if request.isRead {
                // The SSD1306 answers a read with its status register, byte after byte.
                reply = [UInt8](repeating: emulator.statusByte, count: request.readLength)
            } else {
                emulator.write(request.data, to: emulator.address)
            }
            status = .ok
        }
        if status == .ok, !Self.scatter(reply, into: writable, in: memory) { status = .error }
        failsNextRequest = status == .error && (request?.failsNext ?? false)
        if status == .ok { answered += 1 } else { failed += 1 }
        let statusAddress = statusBuffer.address &+ UInt64(statusBuffer.length - 1)
        guard memory.store([status.rawValue], at: statusAddress) else { return 0 }
        return status == .ok ? UInt32(reply.count + 1) : 1
    }

    /// The device-readable bytes of a chain, nil when one lies outside memory or they are too many for a message.
    private static func gather(_ buffers: [VirtqueueBuffer], in memory: some GuestMemory) -> [UInt8]? {
        var bytes: [UInt8] = []
        for buffer in buffers {
            guard bytes.count + Int(buffer.length) <= 8 + VirtioI2CRequest.maximumLength,
                let part = memory.load(Int(buffer.length), at: buffer.address)
            else { return nil }
            bytes += part
        }
        return bytes
    }

    /// Writes `bytes` across the writable buffers in order (the last byte of all stays for the status).
    private static func scatter(_ bytes: [UInt8], into buffers: [VirtqueueBuffer], in memory: some GuestMemory) -> Bool
    {
        var remaining = bytes[...]
        for buffer in buffers where !remaining.isEmpty {
            let part = remaining.prefix(Int(buffer.length))
            guard memory.store(Array(part), at: buffer.address) else { return false }
            remaining = remaining.dropFirst(part.count)
        }
        return true
    }
}
