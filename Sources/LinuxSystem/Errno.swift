import Glibc

/// A system error number (`errno`), as this target's calls throw it and its errors carry it.
///
/// The project's own stand-in for the `Errno` of Apple's System library, spelled the same way but
/// holding only the constants the code uses: that library's current release needs tools 6.1, and
/// the package must build with Swift 6.0.3.
package struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    /// The C value, e.g. `ENOENT`.
    package let rawValue: CInt

    /// The error whose C value is `rawValue`.
    package init(rawValue: CInt) { self.rawValue = rawValue }

    /// The system's wording (strerror), e.g. `No such file or directory`.
    package var description: String {
        strerror(rawValue).map { String(cString: $0) } ?? "Unknown error \(rawValue)"
    }

    /// The calling thread's `errno`, read right after a failed call.
    static var current: Errno { Errno(rawValue: Glibc.errno) }
}

extension Errno {
    /// EPERM: the operation needs privileges the process lacks.
    package static let notPermitted = Errno(rawValue: EPERM)
    /// ENOENT: no file or folder at the path.
    package static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    /// EINTR: a signal interrupted the call.
    package static let interrupted = Errno(rawValue: EINTR)
    /// EIO: a low-level input or output error (also a hung-up terminal).
    package static let ioError = Errno(rawValue: EIO)
    /// ENXIO: no such device or address.
    package static let noSuchAddressOrDevice = Errno(rawValue: ENXIO)
    /// ENOEXEC: the file is not in a format the kernel can run.
    package static let execFormatError = Errno(rawValue: ENOEXEC)
    /// EBADF: the descriptor is not open (or not open for this).
    package static let badFileDescriptor = Errno(rawValue: EBADF)
    /// ECHILD: no such child process to wait for.
    package static let noChildProcess = Errno(rawValue: ECHILD)
    /// EAGAIN: nothing to read or no room to write now, on a non-blocking descriptor.
    package static let resourceTemporarilyUnavailable = Errno(rawValue: EAGAIN)
    /// EWOULDBLOCK: the same value as EAGAIN on Linux.
    package static let wouldBlock = Errno(rawValue: EWOULDBLOCK)
    /// EACCES: the permissions forbid it.
    package static let permissionDenied = Errno(rawValue: EACCES)
    /// EBUSY: the device or resource is in use.
    package static let resourceBusy = Errno(rawValue: EBUSY)
    /// EEXIST: something is already at the path.
    package static let fileExists = Errno(rawValue: EEXIST)
    /// ENODEV: no such device, or the device does not support the operation.
    package static let operationNotSupportedByDevice = Errno(rawValue: ENODEV)
    /// ENOTDIR: part of the path is not a folder.
    package static let notDirectory = Errno(rawValue: ENOTDIR)
    /// EISDIR: the path is a folder.
    package static let isDirectory = Errno(rawValue: EISDIR)
    /// EINVAL: an argument is out of range or makes no sense.
    package static let invalidArgument = Errno(rawValue: EINVAL)
    /// ENOSPC: no space left on the device.
    package static let noSpace = Errno(rawValue: ENOSPC)
    /// EROFS: the file system is mounted read-only.
    package static let readOnlyFileSystem = Errno(rawValue: EROFS)
    /// EMSGSIZE: the message is too long for the device.
    package static let messageTooLong = Errno(rawValue: EMSGSIZE)
    /// ENAMETOOLONG: a path, or a socket's name, is longer than the system takes.
    package static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
}
