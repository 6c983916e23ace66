// Fuzz target: a vhost-user-i2c back-end fed what a front-end and a guest driver control. The
// input's first two bytes give the length of a stream of vhost-user messages, applied after a
// correct start-up (they may tear it down, move the rings, change the size); the rest is the
// guest's RAM (descriptor table at 0x1000, available ring at 0x1080, used ring at 0x1100), then
// the queue is served twice. Nothing may trap; a queue served without error has used every chain.
import SSD1306
import VhostUserI2C

let region = MemoryRegion(guestPhysicalAddress: 0x1000, size: 0x1000, userAddress: 0x7F00_0000_1000, mmapOffset: 0)

/// `value` little-endian.
func le<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
    (0..<(Value.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func vhostUserFuzz(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(data, count)
    guard bytes.count >= 2 else { return 0 }
    let streamLength = min(Int(bytes[0]) | Int(bytes[1]) << 8, bytes.count - 2)
    let stream = Array(bytes[2..<2 + streamLength])
    let ram = Array(bytes[(2 + streamLength)...].prefix(Int(region.size)))

    let memory = ArrayGuestMemory(regions: [region])
    precondition(memory.store(ram, at: region.guestPhysicalAddress))
    var backend = VhostUserI2CBackend(emulator: SSD1306Emulator())
    let toUser = region.userAddress - region.guestPhysicalAddress
    let startUp: [VhostUserCommand] = [
        .setFeatures(VhostUserI2CBackend.offeredFeatures), .setMemoryTable([region]), .setVringNum(8), .setVringBase(0),
        .setVringAddress(
            VringAddress(descriptorTable: 0x1000 + toUser, usedRing: 0x1100 + toUser, availableRing: 0x1080 + toUser)),
        .setVringKick(hasFileDescriptor: true), .setVringEnable(true),
    ]
    for command in startUp { _ = backend.respond(to: command) }

    // The stream: headers with any request, flags (bits 8-11 stand for the descriptors sent) and payload.
    var offset = 0
    while offset + VhostUserHeader.size <= stream.count {
        guard let header = try? VhostUserHeader(decoding: Array(stream[offset..<offset + VhostUserHeader.size])) else {
            break
        }
        offset += VhostUserHeader.size
        let payload = Array(stream[offset...].prefix(Int(header.payloadSize)))
        offset += payload.count
        let message = VhostUserMessage(
            header: header, payload: payload, fileDescriptorCount: Int(header.flags >> 8 & 0xF))
        do {
            let reply = backend.respond(to: try message.command())
            if let reply { precondition(reply.count >= VhostUserHeader.size, "a reply without its header") }
        } catch {
            precondition(!error.description.isEmpty)
        }
    }
    for _ in 0..<2 {
        let before = backend.answered + backend.failed
        do {
            let used = try backend.processQueue(memory)
            precondition(backend.answered + backend.failed - before == used, "every chain used is counted once")
        } catch {
            precondition(!error.description.isEmpty)
        }
    }
    return 0
}
