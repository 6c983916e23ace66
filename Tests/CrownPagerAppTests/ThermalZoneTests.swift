import CrownPagerApp
import Foundation
import LinuxSystem
import PagerEngine
import PagerSettings
import TestSupport
import Testing

/// `cpu-temperature` reads the thermal zone whose type names the CPU, and `cpu-temperature ZONE`
/// the zone named: from a fake `/sys/class/thermal` tree.
@Suite struct ThermalZoneTests {
    /// A sysfs tree with `zones` (type, millidegrees) as thermal_zone0, 1, ...
    static func tree(_ zones: [(String, String)]) throws -> ScratchDirectory {
        let sys = try ScratchDirectory()
        for (index, zone) in zones.enumerated() {
            let folder = sys.path + "/class/thermal/thermal_zone\(index)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try (zone.0 + "\n").write(toFile: folder + "/type", atomically: true, encoding: .utf8)
            try (zone.1 + "\n").write(toFile: folder + "/temp", atomically: true, encoding: .utf8)
        }
        return sys
    }

    @Test func theZoneWhoseTypeNamesTheCPUIsChosen() {
        #expect(HostReadings.cpuZone(types: ["cpu-thermal", "gpu-thermal"]) == 0)  // Raspberry Pi
        #expect(HostReadings.cpuZone(types: ["acpitz", "pch_skylake", "x86_pkg_temp"]) == 2)  // an Intel PC
        #expect(HostReadings.cpuZone(types: ["soc-thermal", "gpu-thermal"]) == 0)  // Rockchip
        #expect(HostReadings.cpuZone(types: ["gpu-thermal", "soc_thermal", "CPU-therm"]) == 2)  // Jetson
        #expect(HostReadings.cpuZone(types: ["ddr-thermal", "cpu0_thermal"]) == 1)
        #expect(HostReadings.cpuZone(types: ["acpitz"]) == nil)
        #expect(HostReadings.cpuZone(types: []) == nil)
    }

    @Test func aZoneIsNamedByItsTypeOrItsDirectory() {
        let types = ["acpitz", "x86_pkg_temp"]
        #expect(HostReadings.zone(named: "acpitz", types: types) == 0)
        #expect(HostReadings.zone(named: "X86_PKG_TEMP", types: types) == 1)
        #expect(HostReadings.zone(named: "thermal_zone1", types: types) == 1)
        #expect(HostReadings.zone(named: "1", types: types) == 1)
        #expect(HostReadings.zone(named: "thermal_zone2", types: types) == nil)
        #expect(HostReadings.zone(named: "gpu", types: types) == nil)
    }

    @Test func aPCReadsItsPackageZoneNotTheBoardsZone0() throws {
        let sys = try Self.tree([("acpitz", "27800"), ("x86_pkg_temp", "55000")])
        let sampling = PageSampling(procRoot: sys.path, sysRoot: sys.path)
        #expect(sampling.sample(.cpuTemperature) == .celsius(55))
        #expect(sampling.sample(.thermalZone("acpitz")) == .celsius(27.8))
        #expect(sampling.sample(.thermalZone("thermal_zone1")) == .celsius(55))
    }

    @Test func aZoneTheBoardLacksSaysSoAndShowsNoOtherFigure() throws {
        let sys = try Self.tree([("cpu-thermal", "48312")])
        let sampling = PageSampling(procRoot: sys.path, sysRoot: sys.path)
        #expect(sampling.sample(.cpuTemperature) == .celsius(48.312))
        #expect(sampling.sample(.thermalZone("gpu-thermal")) == .unavailable("no zone gpu-thermal"))
        do throws(SystemReadingError) {
            _ = try HostReadings(sysRoot: sys.path).cpuTemperature(zone: "gpu-thermal")
            Issue.record("a zone the board lacks must not read")
        } catch {
            #expect(
                error.description
                    == "no thermal zone 'gpu-thermal' in /sys/class/thermal: the zones are cpu-thermal (thermal_zone0); name one by its type or its directory"
            )
        }
        // Without zones at all, as before: no sensor.
        let empty = try ScratchDirectory()
        #expect(
            PageSampling(procRoot: empty.path, sysRoot: empty.path).sample(.cpuTemperature) == .unavailable("no sensor")
        )
    }

    /// The values of a system page of `values` and the gauge of `source`, as configured.
    static func systemAndGauge(values: String, source: String) throws -> ([SystemValue], GaugeSpec)? {
        let configuration = try parseConfiguration(
            "[[page]]\nkind = \"system\"\nvalues = \(values)\n[[page]]\nkind = \"gauge\"\nsource = \"\(source)\"\n")
        guard case .system(let values, _) = configuration.pages[0].kind,
            case .gauge(let gauge) = configuration.pages[1].kind
        else { return nil }
        return (values, gauge)
    }

    @Test func aPageNamesAZone() throws {
        let (values, gauge) = try #require(
            try Self.systemAndGauge(
                values: "[\"cpu-temperature\", \"cpu-temperature x86_pkg_temp\"]",
                source: "cpu-temperature thermal_zone1"))
        #expect(values == [.cpuTemperature, .thermalZone("x86_pkg_temp")])
        #expect(values.map(\.label) == ["cpu", "x86_pkg_temp"])
        #expect(gauge.source == .system(.thermalZone("thermal_zone1")) && gauge.minimum == 30 && gauge.maximum == 85)
        #expect(throws: (any Error).self) {
            try parseConfiguration("[[page]]\nkind = \"system\"\nvalues = [\"load 1\"]\n")
        }
    }
}
