import CrownPagerApp
import Foundation
import LinuxSystem
import PagerEngine
import PagerSettings
import TestSupport
import Testing

/// A `battery` value from a fake `/sys/class/power_supply` tree: charge with its percent sign,
/// time with `left`, and a supply the board lacks said as such.
@Suite struct PowerSupplyTests {
    /// A sysfs tree of power supplies: folder name to its attribute files.
    static func tree(_ supplies: [String: [String: String]]) throws -> ScratchDirectory {
        let sys = try ScratchDirectory()
        for (name, files) in supplies {
            let folder = sys.path + "/class/power_supply/" + name
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (file, text) in files {
                try (text + "\n").write(toFile: folder + "/" + file, atomically: true, encoding: .utf8)
            }
        }
        return sys
    }

    static let laptop: [String: [String: String]] = [
        "AC": ["type": "Mains", "online": "0"],
        "BAT0": [
            "type": "Battery", "status": "Discharging", "capacity": "87", "energy_now": "30000000",
            "power_now": "10000000",
        ],
    ]

    @Test func aLaptopBatteryShowsItsChargeAndTheTimeLeft() throws {
        let sys = try Self.tree(Self.laptop)
        let sampling = PageSampling(procRoot: sys.path, sysRoot: sys.path)
        let sample = sampling.sample(.battery(nil))
        #expect(sample == .battery(percent: 87, status: "Discharging", secondsToEmpty: 3 * 3600))
        #expect(sample.formatted.text == "87% 3h 0m left" && sample.formatted.number == 87)
        #expect(sampling.sample(.battery("BAT0")) == sample)
    }

    @Test func aUPSHatGivesItsTimeToEmptyAndItsChargeFromChargeCounters() throws {
        let sys = try Self.tree([
            "ups-hat": [
                "type": "UPS", "status": "Discharging", "charge_now": "1500000", "charge_full": "2000000",
                "time_to_empty_now": "5400",
            ]
        ])
        let sample = PageSampling(procRoot: sys.path, sysRoot: sys.path).sample(.battery(nil))
        #expect(sample == .battery(percent: 75, status: "Discharging", secondsToEmpty: 5400))
        #expect(sample.formatted.text == "75% 1h 30m left")
    }

    @Test func chargingAndFullSayWhatTheyDoWithoutATime() {
        let charging = SystemSample.battery(percent: 42, status: "Charging", secondsToEmpty: nil)
        #expect(charging.formatted.text == "42% charging")
        #expect(SystemSample.battery(percent: 100, status: "Full", secondsToEmpty: nil).formatted.text == "100% full")
        #expect(
            SystemSample.battery(percent: 60, status: "Discharging", secondsToEmpty: nil).formatted.text
                == "60% on battery")
        #expect(SystemSample.battery(percent: nil, status: "Unknown", secondsToEmpty: nil).formatted.text == "")
        #expect(
            SystemSample.battery(percent: nil, status: "Discharging", secondsToEmpty: 600).formatted.text == "10m left")
    }

    @Test func aSupplyTheBoardLacksSaysSo() throws {
        let sys = try Self.tree(["AC": ["type": "Mains", "online": "1"]])
        let sampling = PageSampling(procRoot: sys.path, sysRoot: sys.path)
        #expect(sampling.sample(.battery(nil)) == .unavailable("no battery"))
        #expect(sampling.sample(.battery("BAT1")) == .unavailable("no battery BAT1"))
        do throws(SystemReadingError) {
            _ = try HostReadings(sysRoot: sys.path).powerSupply(named: "BAT1")
            Issue.record("a supply the board lacks must not read")
        } catch {
            #expect(
                error.description == "no power supply 'BAT1' in /sys/class/power_supply: the supplies are AC (Mains)")
        }
        let none = try ScratchDirectory()
        #expect(
            PageSampling(procRoot: none.path, sysRoot: none.path).sample(.battery(nil)) == .unavailable("no battery"))
    }

    @Test func aPageAndAGaugeNameABattery() throws {
        let (values, gauge) = try #require(
            try ThermalZoneTests.systemAndGauge(values: "[\"battery\", \"battery BAT1\"]", source: "battery"))
        #expect(values == [.battery(nil), .battery("BAT1")])
        #expect(values.map(\.label) == ["battery", "BAT1"])
        #expect(
            gauge.source == .system(.battery(nil)) && gauge.minimum == 0 && gauge.maximum == 100 && gauge.unit == "%")
    }
}
