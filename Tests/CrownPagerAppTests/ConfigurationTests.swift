import CrownPagerApp
import Foundation
import PagerConfig
import PagerCore
import PagerEngine
import PagerSettings
import PagerTools
import SSD1306
import TestSupport
import Testing

func parseConfiguration(_ text: String, directory: String = ".") throws(ConfigError) -> Configuration {
    try Configuration(parsing: text, file: "test.toml", directory: directory)
}

/// The configuration file: every section, every page kind, and the built-in default.
@Suite struct ConfigurationTests {
    @Test func builtInDefaultIsTheShippedFile() throws {
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Hardware/crownpager.toml")
        let text = try String(contentsOf: shipped, encoding: .utf8)
        #expect(text == Configuration.builtInText + "\n")
        let configuration = try parseConfiguration(text)
        #expect(configuration.pages.map(\.title) == ["System", "Clock", "CPU temperature", "Memory", "Disk /"])
        #expect(Configuration.builtIn.pages == configuration.pages)
        #expect(configuration.display.bus == 1 && configuration.display.address == .ssd1306Primary)
        #expect(
            configuration.crown.lineA == 17 && configuration.crown.lineB == 27 && configuration.crown.lineButton == 22)
    }

    @Test func aRejectedFileRunsTheBuiltInPagesAfterOneSayingWhy() throws {
        let broken = "[display]\nbrightness = 300\n"
        var message = ""
        do throws(ConfigError) { _ = try parseConfiguration(broken) } catch { message = "\(error)" }
        #expect(message.hasPrefix("test.toml:2: display.brightness"))
        let fallback = Configuration.builtIn(rejecting: message)
        #expect(fallback.pages.map(\.title) == ["Configuration error"] + Configuration.builtIn.pages.map(\.title))
        #expect(fallback.pages.first?.kind == .text(message))
        #expect(Array(fallback.pages.dropFirst()) == Configuration.builtIn.pages)
        #expect(fallback.display == Configuration.builtIn.display)
    }

    /// The file reads an address by the command line's rule: an integer as TOML wrote it, a string as `--address` would.
    @Test func theAddressIsReadAsOnTheCommandLine() throws {
        for value in ["60", "0x3c", "0x3C", "\"3c\"", "\"3C\"", "\"0x3c\"", "\"60\""] {
            let configuration = try parseConfiguration("[display]\naddress = \(value)")
            #expect(configuration.display.address == .ssd1306Primary, "\(value)")
        }
        #expect(try parseConfiguration("[display]\naddress = \"61\"").display.address == .ssd1306Secondary)
        #expect(try parseConfiguration("[display]\naddress = 0x77").display.address.rawValue == 0x77)
    }

    @Test func sectionsSetEverySetting() throws {
        let configuration = try parseConfiguration(
            """
            [display]
            panel = "sh1106-128x64"
            bus = "mock"
            address = 0x3d
            rotation = 180
            brightness = 40
            dim_brightness = 2
            dim_after = "30s"
            off_after = "never"
            bus_hz = 1000000
            [crown]
            source = "evdev"
            evdev = "/dev/input/event3"
            chip = "/dev/gpiochip4"
            lines = { a = 5, b = 6, button = 13 }
            steps_per_detent = 2
            inverted = true
            acceleration = false
            wrap = true
            side = "left"
            detents_per_page = 2
            [indicator]
            style = "minimal"
            image = "star"
            max_dots = 5
            hides_for_single_page = true
            [[page]]
            kind = "text"
            text = "hi"
            """)
        let display = configuration.display
        #expect(display.panel == .sh1106_128x64 && display.bus == nil && display.address.rawValue == 0x3D)
        #expect(display.rotation.degrees == 180 && display.brightness == 40 && display.dimBrightness == 2)
        #expect(display.dimAfter == .milliseconds(30_000) && display.offAfter == nil && display.busHertz == 1_000_000)
        let crown = configuration.crown
        #expect(crown.source == "evdev" && crown.evdevPath == "/dev/input/event3" && crown.chip == "/dev/gpiochip4")
        #expect(crown.lineA == 5 && crown.lineB == 6 && crown.lineButton == 13 && crown.stepping == .half)
        #expect(crown.inverted && !crown.acceleration && crown.wrap && crown.side == .left && crown.detentsPerPage == 2)
        #expect(crown.crownConfiguration.accelerationInterval == nil)
        let indicator = configuration.indicator
        #expect(
            indicator.style == .minimal && indicator.image == "star" && indicator.maximumDots == 5
                && indicator.hidesForSinglePage)
    }

    @Test func everyPageKind() throws {
        let scratch = try ScratchDirectory()
        try "P1\n3 2\n1 0 1\n0 1 0\n".write(toFile: scratch.path + "/logo.pbm", atomically: true, encoding: .utf8)
        let configuration = try parseConfiguration(
            """
            [[page]]
            kind = "text"
            title = "Note"
            text = "Hello"
            indicator_image = "house"
            [[page]]
            kind = "clock"
            time = "%H:%M:%S"
            date = "%A %d %B %Y"
            [[page]]
            kind = "system"
            values = ["hostname", "cpu-temperature", "load", "memory", "uptime", "disk /home", "ip wlan0", "ip"]
            refresh = "10s"
            [[page]]
            kind = "command"
            argv = ["vcgencmd", "measure_temp"]
            refresh = "5s"
            timeout = "1.5s"
            max_output = 1024
            [[page]]
            kind = "file"
            path = "/var/log/syslog"
            lines = 3
            [[page]]
            kind = "image"
            path = "logo.pbm"
            [[page]]
            kind = "gauge"
            source = "cpu-temperature"
            style = "dial"
            [[page]]
            kind = "gauge"
            source = "command"
            argv = ["cat", "/sys/class/thermal/thermal_zone0/temp"]
            min = 0
            max = 100000
            unit = "m"
            [[page]]
            kind = "gauge"
            source = "file"
            path = "/sys/class/power_supply/BAT0/capacity"
            """, directory: scratch.path)
        let kinds = configuration.pages.map(\.kind)
        #expect(kinds.count == 9)
        #expect(
            kinds[0] == .text("Hello") && configuration.pages[0].title == "Note"
                && configuration.pages[0].indicatorImage == "house")
        guard case .clock(let time, let date) = kinds[1] else {
            Issue.record("clock")
            return
        }
        #expect(
            time.format(SampleReadings.clock) == "10:09:30"
                && date.format(SampleReadings.clock) == "Saturday 21 November 2026")
        #expect(
            kinds[2]
                == .system(
                    [
                        .hostname, .cpuTemperature, .load, .memory, .uptime, .disk(path: "/home"),
                        .ipAddress(interface: "wlan0"), .ipAddress(interface: nil),
                    ],
                    refresh: .milliseconds(10_000)))
        #expect(
            kinds[3]
                == .command(
                    CommandSpec(
                        argv: ["vcgencmd", "measure_temp"], refresh: .milliseconds(5000), timeout: .milliseconds(1500),
                        maximumOutputBytes: 1024)))
        #expect(configuration.pages[3].title == "vcgencmd")
        #expect(kinds[4] == .file(path: "/var/log/syslog", lines: 3, refresh: .milliseconds(2000)))
        guard case .image(let image) = kinds[5] else {
            Issue.record("image")
            return
        }
        #expect(image.bitmap.width == 3 && image.bitmap[0, 0] && !image.bitmap[1, 0])
        guard case .gauge(let dial) = kinds[6], case .gauge(let command) = kinds[7], case .gauge(let file) = kinds[8]
        else {
            Issue.record("gauges")
            return
        }
        #expect(
            dial.isDial && dial.source == .system(.cpuTemperature) && dial.minimum == 30 && dial.maximum == 85
                && dial.unit == "\u{B0}C")
        #expect(command.maximum == 100_000 && command.unit == "m")
        guard case .command(let spec) = command.source else {
            Issue.record("command gauge")
            return
        }
        #expect(spec.argv == ["cat", "/sys/class/thermal/thermal_zone0/temp"])
        #expect(file.source == .file(path: "/sys/class/power_supply/BAT0/capacity"))
    }

    @Test func noPagesMeansTheBuiltInPages() throws {
        let configuration = try parseConfiguration("[display]\nbrightness = 10\n")
        #expect(configuration.pages == Configuration.builtIn.pages)
        #expect(configuration.display.brightness == 10)
    }

    @Test func clockFormatsRefreshBySecondOrMinute() throws {
        let configuration = try parseConfiguration(
            """
            [[page]]
            kind = "clock"
            time = "%I:%M %p"
            [[page]]
            kind = "clock"
            time = "%H:%M:%S"
            [[page]]
            kind = "text"
            text = "x"
            """)
        #expect(PageBook(specs: configuration.pages).intervals == [.milliseconds(60_000), .milliseconds(1000), nil])
    }

    @Test func firstNumberReadsCommandOutput() {
        #expect(firstNumber(in: "temp=48.3'C\n") == 48.3)
        #expect(firstNumber(in: "-12 degrees") == -12)
        #expect(firstNumber(in: "47250\n") == 47250)
        #expect(firstNumber(in: "none") == nil)
    }
}
