import Glibc

/// The GPIO chips this machine has, as the kernel lists them.
package enum GPIOChips {
    /// The chips' device nodes in number order, e.g. `["/dev/gpiochip0"]`; [] on a machine without GPIO.
    ///
    /// The kernel lists its chips on the gpio bus, `/sys/bus/gpio/devices/gpiochipN` (where
    /// libgpiod checks them too). A chip counts only when its node `/dev/gpiochipN` is there too,
    /// which it is not in a container given no devices. No gpio bus at all (a kernel without
    /// GPIO support, as on most desktops and virtual machines) means no chip.
    package static func present() -> [String] {
        FileSystem.numberedEntries(in: "/sys/bus/gpio/devices", prefix: "gpiochip")
            .map { "/dev/gpiochip\($0)" }.filter { FileSystem.exists(atPath: $0) }
    }
}

/// The I2C adapters this machine has.
package enum I2CAdapters {
    /// The numbers of the adapters' device nodes, `/dev/i2c-N`, in order; [] without the i2c-dev driver.
    package static func present() -> [Int] { FileSystem.numberedEntries(in: "/dev", prefix: "i2c-") }
}

extension FileSystem {
    /// The numbers N of the entries named `prefix` followed by N's digits in `folder`, in order;
    /// [] when the folder cannot be read.
    package static func numberedEntries(in folder: String, prefix: String) -> [Int] {
        var numbers: [Int] = []
        for name in entryNames(in: folder) {
            let digits = name.dropFirst(prefix.count)
            guard name.hasPrefix(prefix), !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let number = Int(digits)
            else { continue }
            numbers.append(number)
        }
        return numbers.sorted()
    }

    /// The names of the entries of `folder` but `.` and `..`, in no order; [] when it cannot be read.
    package static func entryNames(in folder: String) -> [String] {
        // open(2), then fdopendir: opendir would open the folder without going through open(2),
        // past the tests' fake kernel, which serves /sys/bus/gpio from a folder of its own.
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        guard let directory = fdopendir(descriptor) else {
            close(descriptor)
            return []
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}
