import Glibc

/// What tells this board and this system apart from others, read from Linux: the serial number
/// the board's firmware puts in the device tree, `/etc/machine-id`, and random bytes for an
/// identity a program makes once and keeps.
package enum HostIdentity {
    /// The board's serial number from the device tree (`/sys/firmware/devicetree/base/serial-number`,
    /// which a Raspberry Pi's firmware fills from its OTP, e.g. `00000000a1b2c3d4`): its letters
    /// and digits, lowercased; nil where there is none, or it is all zeros. `root` prefixes the
    /// path, for tests.
    package static func boardSerial(root: String = "") -> String? {
        guard
            let text = try? FileSystem.readText(
                atPath: root + "/sys/firmware/devicetree/base/serial-number", maximumBytes: 256)
        else { return nil }
        // The property ends in a NUL; the firmware writes only letters and digits.
        let serial = text.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.lowercased()
        return serial.isEmpty || serial.allSatisfy({ $0 == "0" }) ? nil : serial
    }

    /// `/etc/machine-id`'s hexadecimal digits; nil when it is missing or empty (an image not yet
    /// booted, whose first boot makes it).
    package static func machineID(root: String = "") -> String? {
        guard let text = try? FileSystem.readText(atPath: root + "/etc/machine-id", maximumBytes: 256) else {
            return nil
        }
        let id = text.filter { $0.isHexDigit }
        return id.isEmpty ? nil : id
    }

    /// `count` random bytes from the kernel's generator (`/dev/urandom`, which never blocks once
    /// the system has booted), as lowercase hexadecimal; nil if it cannot be read.
    package static func randomHexadecimal(bytes count: Int) -> String? {
        guard let device = try? FileDescriptor.open("/dev/urandom", .readOnly, options: [], permissions: 0) else {
            return nil
        }
        defer { _ = try? device.close() }
        var bytes = [UInt8](repeating: 0, count: count)
        guard let read = try? bytes.withUnsafeMutableBytes({ buffer throws(Errno) in try device.read(into: buffer) }),
            read == count
        else { return nil }
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }
}
