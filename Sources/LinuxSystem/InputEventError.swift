/// Why an input device (`/dev/input/eventN`) could not be opened or read, with what to do about it.
package enum InputEventError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing exists at `path`.
    case notFound(path: String)
    /// The user may not read `path`.
    case permissionDenied(path: String)
    /// The device went away: unplugged or unbound (ENODEV), or a FIFO's writer closed it.
    case disconnected(path: String)
    /// Another system call on `path` failed.
    case system(operation: String, path: String, errno: Errno)

    /// The device concerned.
    package var path: String {
        switch self {
        case .notFound(let path), .permissionDenied(let path), .disconnected(let path), .system(_, let path, _):
            return path
        }
    }

    /// A sentence for the operator, naming the device and the fix.
    package var description: String {
        switch self {
        case .notFound(let path):
            return "\(path) does not exist: list the input devices with `grep -A4 -i -e rotary -e gpio-keys "
                + "/proc/bus/input/devices` (the Handlers line names eventN); the kernel creates them only with "
                + "`dtoverlay=rotary-encoder,...` and `dtoverlay=gpio-key,...` in /boot/firmware/config.txt and a "
                + "reboot (see Hardware/ENCODER.md)"
        case .permissionDenied(let path):
            return "permission denied reading \(path): add your user to the `input` group "
                + "(`sudo usermod -aG input $USER`, then log in again), or install a udev rule such as "
                + "`SUBSYSTEM==\"input\", KERNEL==\"event*\", GROUP=\"input\", MODE=\"0660\"`; root is not needed"
        case .disconnected(let path):
            return "\(path) went away (the device was removed or its driver unbound, or the FIFO's writer closed it)"
        case .system(let operation, let path, let errno):
            return "\(operation) on \(path) failed: \(errno.sentence)"
        }
    }
}
