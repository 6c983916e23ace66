/// One buffer of a descriptor chain: guest-physical address, length, and whether the device
/// writes it (VIRTQ_DESC_F_WRITE) or reads it.
public struct VirtqueueBuffer: Hashable, Sendable {
    /// Its guest-physical address.
    public var address: UInt64
    /// Its length in bytes.
    public var length: UInt32
    /// Device-writable (true) or device-readable.
    public var isWritable: Bool

    /// A buffer with these fields.
    public init(address: UInt64, length: UInt32, isWritable: Bool) {
        self.address = address
        self.length = length
        self.isWritable = isWritable
    }
}

/// A chain the driver made available: its head index (what the used ring names) and its
/// buffers in order, indirect tables already followed.
public struct DescriptorChain: Hashable, Sendable {
    /// The head descriptor's index in the descriptor table.
    public var head: UInt16
    /// The buffers, readable ones first.
    public var buffers: [VirtqueueBuffer]
}

/// Why a ring or a chain cannot be read (virtio 1.2 section 2.7).
public enum VirtqueueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The queue has no size or addresses yet, or they lie outside the guest's memory.
    case notReady
    /// A ring field lies outside the guest's memory.
    case ringOutsideMemory(address: UInt64)
    /// The available index ran more than a queue's worth ahead of what the device has used.
    case availableIndexRunaway(available: UInt16, lastSeen: UInt16, size: UInt16)
    /// A chain names a descriptor past the table's end.
    case descriptorOutOfRange(index: UInt16, tableSize: Int)
    /// A chain is longer than its table: it loops.
    case chainLoops(head: UInt16)
    /// An indirect table's length is 0 or not a multiple of 16, or the table is nested or
    /// chained (VIRTQ_DESC_F_INDIRECT with VIRTQ_DESC_F_NEXT).
    case invalidIndirectTable(head: UInt16)
    /// A device-readable buffer follows a device-writable one.
    case readableAfterWritable(head: UInt16)

    /// A sentence for the log.
    public var description: String {
        switch self {
        case .notReady: return "the virtqueue is not set up (SET_VRING_NUM, SET_VRING_ADDR, SET_MEM_TABLE)"
        case .ringOutsideMemory(let address): return "a ring field at \(hex(address)) is outside the guest's memory"
        case .availableIndexRunaway(let available, let lastSeen, let size):
            return "the available index \(available) is more than the queue size \(size) ahead of \(lastSeen)"
        case .descriptorOutOfRange(let index, let tableSize):
            return "a chain names descriptor \(index) of a table of \(tableSize)"
        case .chainLoops(let head): return "the chain at descriptor \(head) loops"
        case .invalidIndirectTable(let head): return "the chain at descriptor \(head) has an invalid indirect table"
        case .readableAfterWritable(let head):
            return "the chain at descriptor \(head) has a device-readable buffer after a writable one"
        }
    }
}

/// A split virtqueue as the device sees it: where its three parts are in guest memory and
/// how far the device has read the available ring. Everything read from the guest is checked.
public struct SplitVirtqueue: Hashable, Sendable {
    /// VIRTQ_DESC_F_NEXT, VIRTQ_DESC_F_WRITE, VIRTQ_DESC_F_INDIRECT.
    static let next: UInt16 = 1
    static let write: UInt16 = 2
    static let indirect: UInt16 = 4
    /// VIRTQ_AVAIL_F_NO_INTERRUPT: the driver asks not to be signalled.
    static let noInterrupt: UInt16 = 1
    /// The most descriptors an indirect table may hold here: Linux makes one per scatterlist entry.
    public static let maximumIndirectDescriptors = 1024

    /// Descriptors in the table and entries in each ring.
    public var size: UInt16
    /// The descriptor table's guest-physical address.
    public var descriptorTable: UInt64
    /// The available ring's guest-physical address.
    public var availableRing: UInt64
    /// The used ring's guest-physical address.
    public var usedRing: UInt64
    /// The next available-ring entry the device will take.
    public var lastAvailableIndex: UInt16 = 0
    /// The next used-ring entry the device will fill: chains complete in order, so it follows the former.
    public var usedIndex: UInt16 = 0

    /// A queue of `size` entries at these guest-physical addresses.
    public init(size: UInt16, descriptorTable: UInt64, availableRing: UInt64, usedRing: UInt64) {
        self.size = size
        self.descriptorTable = descriptorTable
        self.availableRing = availableRing
        self.usedRing = usedRing
    }

    /// The next available chain's head, or nil when the device has taken them all.
    public mutating func nextAvailableHead(in memory: some GuestMemory) throws(VirtqueueError) -> UInt16? {
        guard size > 0 else { throw .notReady }
        let available = try load(UInt16.self, at: availableRing &+ 2, memory)
        if available == lastAvailableIndex { return nil }
        guard available &- lastAvailableIndex <= size else {
            throw .availableIndexRunaway(available: available, lastSeen: lastAvailableIndex, size: size)
        }
        let slot = UInt64(lastAvailableIndex % size)
        let head = try load(UInt16.self, at: availableRing &+ 4 &+ slot * 2, memory)
        lastAvailableIndex &+= 1
        return head
    }

    /// The chain starting at `head`, indirect tables followed.
    public func chain(at head: UInt16, in memory: some GuestMemory) throws(VirtqueueError) -> DescriptorChain {
        var buffers: [VirtqueueBuffer] = []
        var table = Table(address: descriptorTable, count: Int(size))
        var index = head
        var visited = 0
        var isIndirect = false
        while true {
            guard Int(index) < table.count else { throw .descriptorOutOfRange(index: index, tableSize: table.count) }
            visited += 1
            guard visited <= table.count else { throw .chainLoops(head: head) }
            let descriptor = try table.descriptor(index, memory)
            if descriptor.flags & Self.indirect != 0 {
                // One indirect table per chain, alone in its descriptor (section 2.7.5.3.1).
                guard !isIndirect, descriptor.flags & Self.next == 0, descriptor.length > 0,
                    descriptor.length % 16 == 0, descriptor.length / 16 <= Self.maximumIndirectDescriptors
                else { throw .invalidIndirectTable(head: head) }
                table = Table(address: descriptor.address, count: Int(descriptor.length / 16))
                isIndirect = true
                index = 0
                visited = 0
                continue
            }
            let isWritable = descriptor.flags & Self.write != 0
            if !isWritable, buffers.last?.isWritable == true { throw .readableAfterWritable(head: head) }
            buffers.append(
                VirtqueueBuffer(address: descriptor.address, length: descriptor.length, isWritable: isWritable))
            guard descriptor.flags & Self.next != 0 else { break }
            index = descriptor.next
        }
        return DescriptorChain(head: head, buffers: buffers)
    }

    /// Puts `head` in the used ring with `length` bytes written, then publishes the new used index.
    public mutating func pushUsed(head: UInt16, length: UInt32, in memory: some GuestMemory) throws(VirtqueueError) {
        guard size > 0 else { throw .notReady }
        let slot = UInt64(usedIndex % size)
        let element = [UInt8].littleEndian(UInt32(head)) + .littleEndian(length)
        let elementAddress = usedRing &+ 4 &+ slot * 8
        guard memory.store(element, at: elementAddress) else { throw .ringOutsideMemory(address: elementAddress) }
        usedIndex &+= 1
        // The element is stored before the index that publishes it: the driver reads them in that order.
        guard memory.store(.littleEndian(usedIndex), at: usedRing &+ 2) else {
            throw .ringOutsideMemory(address: usedRing &+ 2)
        }
    }

    /// Whether the driver wants an interrupt for used buffers (event_idx is not offered).
    public func wantsInterrupt(in memory: some GuestMemory) -> Bool {
        guard let flags = memory.load(2, at: availableRing)?.littleEndian(UInt16.self, at: 0) else { return true }
        return flags & Self.noInterrupt == 0
    }

    private func load<Value: FixedWidthInteger & UnsignedInteger>(
        _ type: Value.Type, at address: UInt64, _ memory: some GuestMemory
    ) throws(VirtqueueError) -> Value {
        guard let bytes = memory.load(Value.bitWidth / 8, at: address), let value = bytes.littleEndian(type, at: 0)
        else { throw .ringOutsideMemory(address: address) }
        return value
    }

    /// A descriptor table: the queue's own or an indirect one.
    private struct Table {
        var address: UInt64
        var count: Int

        /// `struct virtq_desc { le64 addr; le32 len; le16 flags; le16 next; }`.
        func descriptor(_ index: UInt16, _ memory: some GuestMemory) throws(VirtqueueError)
            -> (address: UInt64, length: UInt32, flags: UInt16, next: UInt16)
        {
            let at = address &+ UInt64(index) * 16
            guard let bytes = memory.load(16, at: at), let address = bytes.littleEndian(UInt64.self, at: 0),
                let length = bytes.littleEndian(UInt32.self, at: 8),
                let flags = bytes.littleEndian(UInt16.self, at: 12),
                let next = bytes.littleEndian(UInt16.self, at: 14)
            else { throw .ringOutsideMemory(address: at) }
            return (address, length, flags, next)
        }
    }
}
