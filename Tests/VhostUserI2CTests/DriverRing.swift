import PagerGraphics
import SSD1306
import VhostUserI2C

/// The driver's side of a split virtqueue, as Linux's virtio-i2c lays it out: a descriptor table,
/// available and used rings and buffers in guest memory, written through `GuestMemory`.
struct DriverRing<Memory: GuestMemory> {
    static var descriptorFlagNext: UInt16 { 1 }
    static var descriptorFlagWrite: UInt16 { 2 }
    static var descriptorFlagIndirect: UInt16 { 4 }

    let memory: Memory
    let size: UInt16
    /// Guest-physical addresses of the three parts.
    let descriptorTable: UInt64, availableRing: UInt64, usedRing: UInt64
    private var nextDescriptor: UInt16 = 0
    private(set) var availableIndex: UInt16 = 0
    private var heap: UInt64

    /// A ring of `size` at `base` (guest-physical), buffers from `base + 0x3000` on.
    init(memory: Memory, size: UInt16, base: UInt64) {
        self.memory = memory
        self.size = size
        descriptorTable = base
        availableRing = base + 0x1000
        usedRing = base + 0x2000
        heap = base + 0x3000
    }

    /// Places `bytes` in the buffer area; returns their address.
    mutating func allocate(_ bytes: [UInt8]) -> UInt64 {
        let address = heap
        precondition(memory.store(bytes, at: address))
        heap += UInt64((bytes.count + 15) / 16 * 16 + 16)
        return address
    }

    /// Writes descriptor `index` of the table at `table`.
    func writeDescriptor(
        at table: UInt64, _ index: UInt16, address: UInt64, length: UInt32, flags: UInt16, next: UInt16
    ) {
        let bytes =
            [UInt8].le(address) + .le(length) + .le(flags) + .le(next)
        precondition(memory.store(bytes, at: table + UInt64(index) * 16))
    }

    /// Makes a chain of `buffers` available, in the queue's table or through an indirect one; returns its head.
    @discardableResult
    mutating func add(_ buffers: [(address: UInt64, length: UInt32, writable: Bool)], indirect: Bool = false) -> UInt16
    {
        let head: UInt16
        if indirect {
            let table = allocate([UInt8](repeating: 0, count: buffers.count * 16))
            for (index, buffer) in buffers.enumerated() {
                let isLast = index == buffers.count - 1
                let flags = (buffer.writable ? Self.descriptorFlagWrite : 0) | (isLast ? 0 : Self.descriptorFlagNext)
                writeDescriptor(
                    at: table, UInt16(index), address: buffer.address, length: buffer.length, flags: flags,
                    next: UInt16(index + 1))
            }
            head = takeDescriptor()
            writeDescriptor(
                at: descriptorTable, head, address: table, length: UInt32(buffers.count * 16),
                flags: Self.descriptorFlagIndirect, next: 0)
        } else {
            let indices = buffers.map { _ in takeDescriptor() }
            for (position, buffer) in buffers.enumerated() {
                let isLast = position == buffers.count - 1
                let flags = (buffer.writable ? Self.descriptorFlagWrite : 0) | (isLast ? 0 : Self.descriptorFlagNext)
                writeDescriptor(
                    at: descriptorTable, indices[position], address: buffer.address, length: buffer.length,
                    flags: flags, next: isLast ? 0 : indices[position + 1])
            }
            head = indices[0]
        }
        publish(head)
        return head
    }

    /// Puts `head` in the available ring and bumps its index.
    mutating func publish(_ head: UInt16) {
        precondition(memory.store(.le(head), at: availableRing + 4 + UInt64(availableIndex % size) * 2))
        availableIndex &+= 1
        precondition(memory.store(.le(availableIndex), at: availableRing + 2))
    }

    private mutating func takeDescriptor() -> UInt16 {
        defer { nextDescriptor = (nextDescriptor + 1) % size }
        return nextDescriptor
    }

    /// One I2C message as Linux's driver queues it: header, data (if any), status; returns where
    /// the status and any read data land.
    @discardableResult
    mutating func addMessage(
        to address: UInt8, write data: [UInt8] = [], readLength: Int = 0, failNext: Bool = false,
        indirect: Bool = false
    ) -> (status: UInt64, readData: UInt64) {
        let flags: UInt32 = (failNext ? 1 : 0) | (readLength > 0 ? 2 : 0)
        let headerParts: [[UInt8]] = [.le(UInt16(address) << 1), [0, 0], .le(flags)]
        let header = allocate(Array(headerParts.joined()))
        var buffers: [(address: UInt64, length: UInt32, writable: Bool)] = [(header, 8, false)]
        var readData: UInt64 = 0
        if !data.isEmpty { buffers.append((allocate(data), UInt32(data.count), false)) }
        if readLength > 0 {
            readData = allocate([UInt8](repeating: 0xEE, count: readLength))
            buffers.append((readData, UInt32(readLength), true))
        }
        let status = allocate([0xEE])
        buffers.append((status, 1, true))
        add(buffers, indirect: indirect)
        return (status, readData)
    }

    /// The used ring's index.
    var usedIndex: UInt16 { memory.load(2, at: usedRing + 2).map { UInt16($0[0]) | UInt16($0[1]) << 8 } ?? 0 }

    /// Used-ring entry `slot`: the chain's head and the bytes written.
    func used(_ slot: UInt16) -> (head: UInt32, length: UInt32) {
        let bytes = memory.load(8, at: usedRing + 4 + UInt64(slot % size) * 8) ?? []
        func word(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << ($1 * 8) } }
        return (word(0), word(4))
    }

    /// The byte at `address`.
    func byte(at address: UInt64) -> UInt8? { memory.load(1, at: address)?.first }
}

extension [UInt8] {
    /// `value`'s bytes, little-endian.
    static func le<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
        (0..<(Value.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}

/// The I2C transactions of a driver that initializes a 128x64 panel and writes `frame`.
func initializationAndFrame(_ frame: Bitmap) -> [I2CTransfer] {
    var driver = SSD1306Driver(bus: TracingBus(SSD1306Emulator()), panel: .ssd1306_128x64)
    driver.initialize()
    _ = driver.update(to: frame)
    return driver.interface.bus.transfers
}

/// A frame with something on every page: a border, a diagonal and a filled block.
func testFrame() -> Bitmap {
    var frame = Bitmap(width: 128, height: 64)
    for x in 0..<128 {
        frame[x, 0] = true
        frame[x, 63] = true
    }
    for y in 0..<64 {
        frame[0, y] = true
        frame[127, y] = true
        frame[y * 2, y] = true
    }
    for y in 20..<40 { for x in 80..<110 { frame[x, y] = true } }
    return frame
}
