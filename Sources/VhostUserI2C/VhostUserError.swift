/// What was wrong with a vhost-user message from the front-end (QEMU): the request, what was
/// expected and what came, so a log line says which side broke the protocol.
public enum VhostUserError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The header's version bits are not 1: the stream is not vhost-user, or it lost its framing.
    case unsupportedVersion(flags: UInt32)
    /// The header announces a payload larger than any request this back-end knows.
    case payloadTooLarge(request: UInt32, size: UInt32)
    /// The payload is shorter than the request's structure.
    case payloadTooShort(request: VhostUserRequest, size: Int, needed: Int)
    /// A request this back-end does not implement (it offers no protocol features that would ask for it).
    case unsupportedRequest(UInt32)
    /// A vring index other than 0: virtio-i2c has one queue, `requestq`.
    case noSuchQueue(request: VhostUserRequest, index: UInt32)
    /// SET_MEM_TABLE's region count is above 8, or does not match the file descriptors sent with it.
    case regionCount(regions: UInt32, fileDescriptors: Int)
    /// A memory region whose size is 0 or whose address range wraps around 2^64.
    case invalidRegion(index: Int)
    /// SET_VRING_NUM's size is 0, above 32768 or not a power of 2 (virtio 1.2 section 2.7).
    case invalidQueueSize(UInt32)

    /// Whether the stream can go on: after a framing error the next header's position is unknown.
    public var losesFraming: Bool {
        switch self {
        case .unsupportedVersion, .payloadTooLarge: return true
        default: return false
        }
    }

    /// A sentence for the log.
    public var description: String {
        switch self {
        case .unsupportedVersion(let flags):
            return "vhost-user header flags \(hex(flags)) do not carry version 1: the front-end is not vhost-user"
        case .payloadTooLarge(let request, let size):
            return "vhost-user request \(request) announces \(size) payload bytes, more than the "
                + "\(VhostUserMessage.maximumPayloadSize) any request needs"
        case .payloadTooShort(let request, let size, let needed):
            return "vhost-user \(request) carries \(size) payload bytes; it needs \(needed)"
        case .unsupportedRequest(let request):
            return "vhost-user request \(request) is not supported by this back-end; ignored"
        case .noSuchQueue(let request, let index):
            return "vhost-user \(request) names vring \(index); virtio-i2c has only vring 0"
        case .regionCount(let regions, let fileDescriptors):
            return "SET_MEM_TABLE announces \(regions) regions with \(fileDescriptors) file descriptors; "
                + "it needs one descriptor per region and at most \(MemoryRegion.maximumCount)"
        case .invalidRegion(let index):
            return "SET_MEM_TABLE region \(index) is empty or wraps around the address space"
        case .invalidQueueSize(let size):
            return "SET_VRING_NUM \(size) is not a virtqueue size (a power of 2 from 1 to 32768)"
        }
    }
}

/// `value` as `0x…` hexadecimal.
func hex<Value: BinaryInteger>(_ value: Value) -> String { "0x" + String(value, radix: 16) }
