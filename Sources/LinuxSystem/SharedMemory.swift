import CLinuxInput
import Glibc

/// A file's memory mapped shared and writable (a memfd that backs a guest's RAM), read and
/// written by offset with bounds checks: an offset outside the mapping is refused, never a fault.
package final class SharedMemoryMapping {
    /// The mapping's length in bytes.
    package let length: Int
    private let base: UnsafeMutableRawPointer

    /// Maps the first `length` bytes of `file` (MAP_SHARED, read and write). The descriptor may be
    /// closed afterwards: the mapping keeps the memory.
    package init(mapping file: FileDescriptor, length: Int) throws(Errno) {
        guard length > 0 else { throw .invalidArgument }
        let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, file.rawValue, 0)
        guard let address, address != MAP_FAILED else { throw .current }
        self.length = length
        base = address
    }

    deinit { munmap(base, length) }

    /// The `count` bytes at `offset`, nil unless all are inside.
    package func load(_ count: Int, at offset: Int) -> [UInt8]? {
        guard count >= 0, offset >= 0, offset <= length, count <= length - offset else { return nil }
        return [UInt8](UnsafeRawBufferPointer(start: base + offset, count: count))
    }

    /// Stores `bytes` at `offset`; false (and nothing stored) unless all fit.
    package func store(_ bytes: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset <= length, bytes.count <= length - offset else { return false }
        bytes.withUnsafeBytes {
            guard let source = $0.baseAddress else { return }
            (base + offset).copyMemory(from: source, byteCount: $0.count)
        }
        return true
    }

    /// A new anonymous memory file of `size` zero bytes (memfd_create), as QEMU's
    /// `memory-backend-memfd` makes for guest RAM.
    package static func makeMemoryFile(named name: String, size: Int) throws(Errno) -> FileDescriptor {
        // MFD_CLOEXEC is 1 (<linux/memfd.h>).
        let file = crownpager_memfd_create(name, 1)
        guard file >= 0 else { throw .current }
        guard ftruncate(file, off_t(size)) == 0 else {
            let error = Errno.current
            Glibc.close(file)
            throw error
        }
        return FileDescriptor(rawValue: file)
    }
}

/// An eventfd: a counter one side adds to (a kick, an interrupt) and the other polls and takes.
package struct EventCounter: Sendable {
    /// The descriptor.
    package let descriptor: FileDescriptor

    /// A new non-blocking eventfd at 0.
    package init() throws(Errno) {
        let file = eventfd(0, CInt(EFD_CLOEXEC | EFD_NONBLOCK))
        guard file >= 0 else { throw .current }
        descriptor = FileDescriptor(rawValue: file)
    }

    /// The eventfd received as `descriptor`.
    package init(_ descriptor: FileDescriptor) { self.descriptor = descriptor }

    /// Adds 1, waking whoever polls it.
    package func signal() throws(Errno) {
        var one: UInt64 = 1
        guard Glibc.write(descriptor.rawValue, &one, 8) == 8 else { throw .current }
    }

    /// The count so far, reset to 0; 0 when nothing was added (a blocking eventfd would wait instead).
    package func take() -> UInt64 {
        var value: UInt64 = 0
        return Glibc.read(descriptor.rawValue, &value, 8) == 8 ? value : 0
    }

    /// Closes it.
    package func close() { _ = try? descriptor.close() }
}
