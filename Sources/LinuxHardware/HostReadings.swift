import Glibc

/// Readings from `/sys` and the C library: the CPU temperature, an interface's IPv4 address,
/// a file system's use. Each failure is a typed error naming what was read.
package struct HostReadings: Sendable {
    /// Where sysfs is mounted; tests point it at a folder of their own files.
    package var sysRoot: String

    /// Readings from the sysfs at `sysRoot`.
    package init(sysRoot: String = "/sys") { self.sysRoot = sysRoot }

    /// The CPU temperature in degrees Celsius, from the first thermal zone (millidegrees in the file).
    ///
    /// On a Raspberry Pi `thermal_zone0` is the SoC (`cpu-thermal`); it is what `vcgencmd measure_temp` reads.
    package func cpuTemperature() throws(SystemReadingError) -> Double {
        let path = sysRoot + "/class/thermal/thermal_zone0/temp"
        let text: String
        do {
            text = try FileSystem.readText(atPath: path, maximumBytes: 256)
        } catch {
            throw .unreadable(error)
        }
        let trimmed = text.split(whereSeparator: { $0 == "\n" || $0 == " " }).first.map(String.init) ?? ""
        guard let millidegrees = Int(trimmed) else {
            throw .malformed(path: path, detail: "'\(trimmed)' is not millidegrees")
        }
        return Double(millidegrees) / 1000
    }

    /// The used share of the file system holding `path`, 0 to 1, as `df` counts it (blocks for unprivileged users).
    package static func diskUsage(path: String) throws(SystemReadingError) -> (usedFraction: Double, totalBytes: UInt64)
    {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else {
            throw .unreadable(.failed(operation: .open, path: path, errno: Errno(rawValue: Glibc.errno)))
        }
        let used = Double(info.f_blocks - info.f_bfree)
        let usable = used + Double(info.f_bavail)
        return (usable > 0 ? used / usable : 0, UInt64(info.f_blocks) * UInt64(info.f_frsize))
    }

    /// The IPv4 address of `interface`, or of the first interface that is up and not loopback; nil when none has one.
    package static func ipv4Address(interface: String?) -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else {
                continue
            }
            let name = String(cString: entry.pointee.ifa_name)
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            if let interface {
                guard name == interface else { continue }
            } else {
                // IFF_UP (0x1) and IFF_LOOPBACK (0x8) from <net/if.h>; literal because Glibc imports
                // them as Int or as an enum depending on the Swift version.
                guard flags & 0x1 != 0, flags & 0x8 == 0 else { continue }
            }
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                // s_addr is in network order: its bytes in memory are the address's four numbers.
                withUnsafeBytes(of: inet.pointee.sin_addr.s_addr) { $0.map { String($0) }.joined(separator: ".") }
            }
        }
        return nil
    }
}
