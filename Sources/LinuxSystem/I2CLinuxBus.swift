import CI2C
import Glibc
import SSD1306

/// How `LinuxI2CBus` puts a write transaction on the wire.
package enum I2CWriteMethod: Hashable, Sendable {
    /// `write()` on the descriptor after I2C_SLAVE: one message of any length up to 8192 bytes.
    case write
    /// One I2C_RDWR message, which needs no I2C_SLAVE and so never clashes with a kernel driver's claim.
    case rdwr
}

/// A Linux I2C adapter, `/dev/i2c-N`, as an `I2CBus`.
///
/// A whole transaction goes out at once (a 1025-byte frame is one message, not 32-byte SMBus
/// blocks); libi2c does the SMBus-level reads. Calls interrupted by a signal (EINTR) are
/// retried. Every error carries the path, the address and the errno, with a hint (`I2CError`).
///
/// An adapter that goes away mid-run (a USB or bit-banged one unplugged, its driver unloaded:
/// the old descriptor fails with ENODEV, or the node is gone after a failure) is closed, and
/// each later call opens the path again (open and I2C_SLAVE, as at the start). While the node
/// is missing those calls fail at once with an `adapterGone` error; once it is back they go
/// through the new descriptor.
package final class LinuxI2CBus: I2CBus {
    /// The device node.
    package let path: String
    /// How writes go out.
    package var writeMethod: I2CWriteMethod
    private var descriptor: Int32
    private var selectedAddress: I2CAddress?
    /// The adapter went away: the descriptor is closed and the next call opens the path again.
    private var reopens = false

    /// The device node of bus `number`: `/dev/i2c-<number>`.
    package static func path(bus number: Int) -> String { "/dev/i2c-\(number)" }

    /// Opens the adapter at `path` for reading and writing.
    package static func open(path: String, writeMethod: I2CWriteMethod = .write) throws(I2CError) -> LinuxI2CBus {
        LinuxI2CBus(path: path, descriptor: try openDescriptor(path), writeMethod: writeMethod)
    }

    private static func openDescriptor(_ path: String) throws(I2CError) -> Int32 {
        var descriptor: Int32
        repeat {
            descriptor = Glibc.open(path, O_RDWR | O_CLOEXEC)
        } while descriptor < 0 && Glibc.errno == EINTR
        guard descriptor >= 0 else {
            throw I2CError(operation: .open, path: path, address: nil, errno: Errno(rawValue: Glibc.errno))
        }
        return descriptor
    }

    private init(path: String, descriptor: Int32, writeMethod: I2CWriteMethod) {
        self.path = path
        self.descriptor = descriptor
        self.writeMethod = writeMethod
    }

    deinit { close() }

    /// Closes the descriptor; later calls fail with EBADF. Safe to call twice.
    package func close() {
        reopens = false
        closeDescriptor()
    }

    private func closeDescriptor() {
        selectedAddress = nil
        guard descriptor >= 0 else { return }
        _ = Glibc.close(descriptor)
        descriptor = -1
    }

    /// Sends `bytes` to `address` as one transaction.
    package func write(_ bytes: [UInt8], to address: I2CAddress) throws(I2CError) {
        try reopenIfGone()
        switch writeMethod {
        case .write:
            try select(address)
            let written = bytes.withUnsafeBytes { buffer in
                retryingInterrupts { Glibc.write(descriptor, buffer.baseAddress, buffer.count) }
            }
            guard written >= 0 else { throw failure(.write, address) }
            // i2c-dev passes on the i2c core's count: 0 bytes when the adapter executed none of
            // the one message (a NACK reported as a short count, as i2c-virtio does).
            guard written > 0 || bytes.isEmpty else { throw shortCount(executed: 0, sent: 1, address) }
            // i2c-dev sends a message whole or not at all, but caps it at 8192 bytes.
            guard written == bytes.count else {
                throw I2CError(operation: .write, path: path, address: address, errno: .messageTooLong)
            }
        case .rdwr:
            var copy = bytes
            let result = copy.withUnsafeMutableBufferPointer { buffer in
                var message = i2c_msg(
                    addr: UInt16(address.rawValue), flags: 0, len: UInt16(clamping: buffer.count),
                    buf: buffer.baseAddress)
                return withUnsafeMutablePointer(to: &message) { messages in
                    var request = i2c_rdwr_ioctl_data(msgs: messages, nmsgs: 1)
                    return retryingInterrupts { Int(crownpager_i2c_rdwr(descriptor, &request)) }
                }
            }
            guard result >= 0 else { throw failure(.write, address) }
            // I2C_RDWR returns the number of messages executed: an adapter may report a NACK
            // as fewer than were sent, with no errno.
            guard result == 1 else { throw shortCount(executed: result, sent: 1, address) }
        }
    }

    /// Reads one byte with an SMBus receive byte (libi2c): for a display controller, its status byte.
    ///
    /// It succeeds only when a device acknowledges `address`, so it is also the check that one is there.
    package func readByte(from address: I2CAddress) throws(I2CError) -> UInt8 {
        try reopenIfGone()
        try select(address)
        let result = retryingInterrupts { Int(i2c_smbus_read_byte(descriptor)) }
        guard result >= 0 else {
            // libi2c 4.x returns -errno.
            throw checked(
                I2CError(operation: .read, path: path, address: address, errno: Errno(rawValue: Int32(-result))))
        }
        return UInt8(truncatingIfNeeded: result)
    }

    /// I2C_SLAVE, only when the address changes.
    private func select(_ address: I2CAddress) throws(I2CError) {
        guard selectedAddress != address else { return }
        let result = retryingInterrupts { Int(crownpager_i2c_select_address(descriptor, UInt(address.rawValue))) }
        guard result >= 0 else { throw failure(.selectAddress, address) }
        selectedAddress = address
    }

    /// A write the adapter cut short: a NACK on `address`.
    private func shortCount(executed: Int, sent: Int, _ address: I2CAddress) -> I2CError {
        I2CError(operation: .write, path: path, address: address, executed: .init(executed, of: sent))
    }

    private func failure(_ operation: I2CError.Operation, _ address: I2CAddress) -> I2CError {
        checked(I2CError(operation: operation, path: path, address: address, errno: Errno(rawValue: Glibc.errno)))
    }

    /// `error`, or the same failure marked `adapterVanished` when the adapter went away: its
    /// descriptor answers ENODEV (i2c-dev once the adapter is unregistered), or the node is gone
    /// (an adapter's driver may fail the transfer with EIO or ETIMEDOUT first). Then the
    /// descriptor is closed, so the kernel can finish removing the adapter, and the next call reopens.
    private func checked(_ error: I2CError) -> I2CError {
        guard descriptor >= 0, error.errno.rawValue != EBADF else { return error }
        let nodeGone = Glibc.access(path, F_OK) != 0 && Glibc.errno == ENOENT
        guard error.errno.rawValue == ENODEV || nodeGone else { return error }
        closeDescriptor()
        reopens = true
        return I2CError(
            operation: error.operation, path: path, address: error.address, errno: error.errno, adapterVanished: true)
    }

    /// Opens the path again after the adapter went away; while the node is missing (ENOENT) or not
    /// yet bound (ENODEV), fails at once with an `adapterGone` error.
    private func reopenIfGone() throws(I2CError) {
        guard reopens else { return }
        do throws(I2CError) {
            descriptor = try Self.openDescriptor(path)
        } catch {
            let missing = error.errno.rawValue == ENOENT || error.errno.rawValue == ENODEV
            throw I2CError(operation: .open, path: path, address: nil, errno: error.errno, adapterVanished: missing)
        }
        reopens = false
        selectedAddress = nil
    }

    /// Runs `call` again while it fails with EINTR; libi2c reports that as -EINTR.
    private func retryingInterrupts(_ call: () -> Int) -> Int {
        while true {
            let result = call()
            if result == -1 && Glibc.errno == EINTR { continue }
            if result == -Int(EINTR) { continue }
            return result
        }
    }
}
