/// One region of the guest's RAM as SET_MEM_TABLE describes it: where it is for the guest
/// (guest-physical), for the front-end process (QEMU's virtual address) and in the file that
/// backs it (the memfd sent with the message, mapped from `mmapOffset`).
public struct MemoryRegion: Hashable, Sendable {
    /// VHOST_MEMORY_BASELINE_NREGIONS: SET_MEM_TABLE carries at most 8 regions.
    public static let maximumCount: UInt32 = 8

    /// The region's first guest-physical address.
    public var guestPhysicalAddress: UInt64
    /// Its length in bytes.
    public var size: UInt64
    /// Its first address in the front-end's address space (what SET_VRING_ADDR uses).
    public var userAddress: UInt64
    /// Where the region starts in the file descriptor's memory.
    public var mmapOffset: UInt64

    /// A region with these fields.
    public init(guestPhysicalAddress: UInt64, size: UInt64, userAddress: UInt64, mmapOffset: UInt64) {
        self.guestPhysicalAddress = guestPhysicalAddress
        self.size = size
        self.userAddress = userAddress
        self.mmapOffset = mmapOffset
    }

    /// Non-empty, and no range wraps past 2^64 (so the arithmetic below cannot overflow).
    var isValid: Bool {
        size > 0 && !guestPhysicalAddress.addingReportingOverflow(size).overflow
            && !userAddress.addingReportingOverflow(size).overflow
            && !mmapOffset.addingReportingOverflow(size).overflow
    }

    /// The offset in the region of `count` bytes at guest-physical `address`, nil unless all are inside.
    func offset(ofGuestPhysical address: UInt64, count: Int) -> Int? {
        Self.offset(of: address, count: count, start: guestPhysicalAddress, size: size)
    }

    private static func offset(of address: UInt64, count: Int, start: UInt64, size: UInt64) -> Int? {
        guard count >= 0, address >= start else { return nil }
        let offset = address - start
        guard offset <= size, UInt64(count) <= size - offset, offset <= UInt64(Int.max) else { return nil }
        return Int(offset)
    }

    /// The guest-physical address of front-end address `address`, nil outside the region.
    func guestPhysical(ofUser address: UInt64) -> UInt64? {
        guard let offset = Self.offset(of: address, count: 0, start: userAddress, size: size) else { return nil }
        return guestPhysicalAddress + UInt64(offset)
    }
}

extension [MemoryRegion] {
    /// The region holding all `count` bytes at guest-physical `address`, and the offset in it.
    public func locate(guestPhysical address: UInt64, count: Int) -> (region: Int, offset: Int)? {
        for (index, region) in enumerated() {
            if let offset = region.offset(ofGuestPhysical: address, count: count) { return (index, offset) }
        }
        return nil
    }

    /// The guest-physical address of front-end (QEMU) address `address`.
    public func guestPhysical(ofUser address: UInt64) -> UInt64? {
        for region in self {
            if let translated = region.guestPhysical(ofUser: address) { return translated }
        }
        return nil
    }
}

/// The guest's RAM as the back-end reaches it, by guest-physical address. Every access is
/// checked: an address outside the regions is a nil or false, never a fault.
public protocol GuestMemory {
    /// The `count` bytes at `address`, nil unless all lie in one region.
    func load(_ count: Int, at address: UInt64) -> [UInt8]?
    /// Stores `bytes` at `address`; false (and nothing stored) unless all lie in one region.
    func store(_ bytes: [UInt8], at address: UInt64) -> Bool
}

/// Guest RAM held in arrays, for tests and fuzzing: the regions of a memory table, each its own bytes.
public final class ArrayGuestMemory: GuestMemory {
    /// The regions, as SET_MEM_TABLE would describe them.
    public let regions: [MemoryRegion]
    /// Each region's bytes.
    public private(set) var contents: [[UInt8]]

    /// Zeroed regions; `regions` must have sizes an array can hold.
    public init(regions: [MemoryRegion]) {
        self.regions = regions
        contents = regions.map { [UInt8](repeating: 0, count: Int(clamping: $0.size)) }
    }

    /// The bytes at `address`, nil outside.
    public func load(_ count: Int, at address: UInt64) -> [UInt8]? {
        guard let (region, offset) = regions.locate(guestPhysical: address, count: count),
            offset + count <= contents[region].count
        else { return nil }
        return Array(contents[region][offset..<offset + count])
    }

    /// Stores `bytes` at `address`; false outside.
    @discardableResult
    public func store(_ bytes: [UInt8], at address: UInt64) -> Bool {
        guard let (region, offset) = regions.locate(guestPhysical: address, count: bytes.count),
            offset + bytes.count <= contents[region].count
        else { return false }
        contents[region].replaceSubrange(offset..<offset + bytes.count, with: bytes)
        return true
    }
}
