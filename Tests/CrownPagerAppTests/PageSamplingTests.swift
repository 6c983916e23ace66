import CrownPagerApp
import Foundation
import PagerEngine
import TestSupport
import Testing

/// A system value that cannot be read shows why on its page, in a few words.
@Suite struct PageSamplingTests {
    @Test func aValueThatCannotBeReadSaysWhy() throws {
        let proc = try ScratchDirectory()
        let sys = try ScratchDirectory()
        try "MemTotal: nonsense\n".write(toFile: proc.path + "/meminfo", atomically: true, encoding: .utf8)
        try "0.50 0.25 0.10 1/100 42\n".write(toFile: proc.path + "/loadavg", atomically: true, encoding: .utf8)
        let sampling = PageSampling(procRoot: proc.path, sysRoot: sys.path)
        #expect(sampling.sample(.uptime) == .unavailable("missing"))
        #expect(sampling.sample(.memory) == .unavailable("bad data"))
        #expect(sampling.sample(.cpuTemperature) == .unavailable("no sensor"))
        #expect(sampling.sample(.disk(path: proc.path + "/none")) == .unavailable("no \(proc.path)/none"))
        #expect(sampling.sample(.load) == .load(one: 0.5, five: 0.25, fifteen: 0.1))
        // A thermal zone that is there but unreadable is not a missing sensor.
        try FileManager.default.createDirectory(
            atPath: sys.path + "/class/thermal/thermal_zone0/temp", withIntermediateDirectories: true)
        #expect(sampling.sample(.cpuTemperature) == .unavailable("unreadable"))
    }
}
