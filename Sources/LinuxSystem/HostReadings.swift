import Glibc

/// Readings from `/sys` and the C library: the CPU temperature, an interface's IPv4 address,
/// a file system's use. Each failure is a typed error naming what was read.
package struct HostReadings: Sendable {
    /// Where sysfs is mounted; tests point it at a folder of their own files.
    package var sysRoot: String

    /// Readings from the sysfs at `sysRoot`.
    package init(sysRoot: String = "/sys") { self.sysRoot = sysRoot }

    /// The temperature in degrees Celsius of the thermal zone `zone` names (its type, such as
    /// `cpu-thermal`, or its directory, `thermal_zone2`), or without one of the CPU's zone
    /// (`cpuZone(types:)`): millidegrees in `/sys/class/thermal/thermal_zoneN/temp`.
    ///
    /// On a Raspberry Pi `thermal_zone0` is the SoC (`cpu-thermal`), what `vcgencmd measure_temp`
    /// reads; on a PC zone 0 is often the board's ACPI zone (`acpitz`) and the CPU's is `x86_pkg_temp`.
    /// Throws `noThermalZone` when no zone has the name given.
    package func cpuTemperature(zone: String? = nil) throws(SystemReadingError) -> Double {
        let types = thermalZoneTypes()
        let index: Int
        if let zone {
            guard let named = Self.zone(named: zone, types: types) else {
                throw .noThermalZone(zone, available: types.enumerated().map { "\($1) (thermal_zone\($0))" })
            }
            index = named
        } else {
            index = Self.cpuZone(types: types) ?? 0
        }
        let path = sysRoot + "/class/thermal/thermal_zone\(index)/temp"
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

    /// The types of `thermal_zone0`, `thermal_zone1`... in order, up to the first zone missing.
    func thermalZoneTypes() -> [String] {
        var types: [String] = []
        // The kernel numbers zones from 0 without gaps; 64 bounds a tree that is not the kernel's.
        for index in 0..<64 {
            let path = sysRoot + "/class/thermal/thermal_zone\(index)/type"
            guard let text = try? FileSystem.readText(atPath: path, maximumBytes: 256) else { break }
            types.append(text.split(whereSeparator: { $0 == "\n" || $0 == " " }).first.map(String.init) ?? "")
        }
        return types
    }

    /// The zone whose type names the CPU: the first containing `cpu` (`cpu-thermal`,
    /// `cpu_thermal`, `CPU-therm`), else Intel's package sensor `x86_pkg_temp`, else one naming the
    /// SoC (`soc-thermal`); nil when none does (zone 0 is read then, as before).
    package static func cpuZone(types: [String]) -> Int? {
        let lowered = types.map { $0.lowercased() }
        return lowered.firstIndex { $0.contains("cpu") } ?? lowered.firstIndex { $0 == "x86_pkg_temp" }
            ?? lowered.firstIndex { $0.contains("soc") }
    }

    /// The zone `name` names: `thermal_zoneN` (or `N`), or a type, compared without case.
    package static func zone(named name: String, types: [String]) -> Int? {
        let number = name.hasPrefix("thermal_zone") ? String(name.dropFirst("thermal_zone".count)) : name
        if let index = Int(number), types.indices.contains(index) { return index }
        return types.firstIndex { $0.lowercased() == name.lowercased() }
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
