/// A battery or a UPS as the kernel's power_supply class reports it
/// (Documentation/ABI/testing/sysfs-class-power): its charge, what it is doing, and the time it
/// has left where the kernel gives it or its energy and power do.
package struct PowerSupplyReading: Hashable, Sendable {
    /// Its folder in /sys/class/power_supply: `BAT0`, `battery`, a UPS HAT's driver name.
    package var name: String
    /// The charge, 0 to 100 percent (`capacity`, else `energy_now` of `energy_full` or
    /// `charge_now` of `charge_full`); nil when the kernel gives none of them.
    package var capacityPercent: Double?
    /// `status` as the kernel writes it: `Charging`, `Discharging`, `Full`, `Not charging`, `Unknown`.
    package var status: String
    /// Seconds until empty: `time_to_empty_now`, else, while discharging, `energy_now` / `power_now`
    /// or `charge_now` / `current_now`; nil when there is no such figure.
    package var secondsToEmpty: Int64?
}

extension HostReadings {
    /// The power supply `name` (its folder), or the first (by name) whose `type` is `Battery` or `UPS`.
    ///
    /// Throws `noPowerSupply` when there is none, or none called `name`: the page says so and
    /// shows no figure of another supply.
    package func powerSupply(named name: String?) throws(SystemReadingError) -> PowerSupplyReading {
        let folder = sysRoot + "/class/power_supply"
        let names = FileSystem.entryNames(in: folder).sorted()
        let types = names.map { read(folder + "/" + $0 + "/type") ?? "" }
        let chosen: String
        if let name {
            guard names.contains(name) else {
                throw .noPowerSupply(name, available: zip(names, types).map { "\($0) (\($1))" })
            }
            chosen = name
        } else {
            guard let index = types.firstIndex(where: { $0 == "Battery" || $0 == "UPS" }) else {
                throw .noPowerSupply(nil, available: zip(names, types).map { "\($0) (\($1))" })
            }
            chosen = names[index]
        }
        let path = folder + "/" + chosen + "/"
        func number(_ file: String) -> Double? { read(path + file).flatMap { Double($0) } }
        let status = read(path + "status") ?? "Unknown"
        var capacity = number("capacity")
        if capacity == nil {
            if let now = number("energy_now"), let full = number("energy_full"), full > 0 {
                capacity = now / full * 100
            } else if let now = number("charge_now"), let full = number("charge_full"), full > 0 {
                capacity = now / full * 100
            }
        }
        var seconds = number("time_to_empty_now").flatMap { $0 > 0 ? Int64($0) : nil }
        if seconds == nil, status == "Discharging" {
            // Microwatt-hours over microwatts, or microampere-hours over microamperes: hours.
            if let energy = number("energy_now"), let power = number("power_now"), power > 0 {
                seconds = Int64(energy / power * 3600)
            } else if let charge = number("charge_now"), let current = number("current_now"), current != 0 {
                seconds = Int64(charge / abs(current) * 3600)
            }
        }
        return PowerSupplyReading(
            name: chosen, capacityPercent: capacity.map { min(100, max(0, $0)) }, status: status,
            secondsToEmpty: seconds)
    }

    /// The first word-run of a small sysfs file, its line end dropped; nil when it cannot be read.
    private func read(_ path: String) -> String? {
        guard let text = try? FileSystem.readText(atPath: path, maximumBytes: 256) else { return nil }
        let line = text.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
        return line.isEmpty ? nil : line
    }
}
