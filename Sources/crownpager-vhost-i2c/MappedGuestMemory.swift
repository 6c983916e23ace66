import LinuxSystem
import VhostUserI2C

/// The guest's RAM as SET_MEM_TABLE shared it: each region's memfd mapped, reached by guest-physical address.
struct MappedGuestMemory: GuestMemory {
    /// The regions, in the order of `mappings`.
    let regions: [MemoryRegion]
    /// Each region's file mapped from offset 0 to the region's end (`mmapOffset + size`).
    let mappings: [SharedMemoryMapping]

    /// No memory: every access refused.
    init() {
        regions = []
        mappings = []
    }

    /// Maps `files`, one per region; the caller closes them afterwards.
    init(regions: [MemoryRegion], files: [FileDescriptor]) throws(Errno) {
        var mappings: [SharedMemoryMapping] = []
        for (region, file) in zip(regions, files) {
            let (length, overflow) = region.mmapOffset.addingReportingOverflow(region.size)
            guard !overflow, length <= UInt64(Int.max) else { throw .invalidArgument }
            mappings.append(try SharedMemoryMapping(mapping: file, length: Int(length)))
        }
        self.regions = regions
        self.mappings = mappings
    }

    func load(_ count: Int, at address: UInt64) -> [UInt8]? {
        guard let (index, offset) = regions.locate(guestPhysical: address, count: count) else { return nil }
        return mappings[index].load(count, at: Int(regions[index].mmapOffset) + offset)
    }

    func store(_ bytes: [UInt8], at address: UInt64) -> Bool {
        guard let (index, offset) = regions.locate(guestPhysical: address, count: bytes.count) else { return false }
        return mappings[index].store(bytes, at: Int(regions[index].mmapOffset) + offset)
    }
}
