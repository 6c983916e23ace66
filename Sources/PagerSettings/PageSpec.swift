import CrownInput
import CrownVocabulary
import PagerConfig
import PagerCore
import PagerGraphics
import SSD1306

/// How large a page's text is drawn (`[[page]] size`).
package enum PageTextSize: String, CaseIterable, Hashable, Sendable {
    /// Under the title, in the page's font, wrapped and scrolled.
    case normal
    /// Alone, without the title, in the largest Spleen font that fits it in one or two lines.
    case large
}

/// One `[[page]]`.
package struct PageSpec: Hashable, Sendable {
    /// Shown at the top of the page and in the title list.
    package var title: String
    /// What the page shows.
    package var kind: PageKind
    /// Its own indicator image, if any.
    package var indicatorImage: String?
    /// The line of its `[[page]]` header, for messages.
    package var line: Int
    /// How long it stays before the next page comes by itself: `[timer]`'s duration, its own, or never.
    package var duration: PageDuration
    /// The font its text draws in first: its own `font`, else `display.font`; nil is misc-fixed 6x10.
    package var font: ConfiguredFont?
    /// Its value comes from `crownpager set` (`source = "push"`), not from a read; nil for the others.
    package var push: PushedValue?
    /// What a press of the crown runs on it, if anything (`action`).
    package var action: PageAction?
    /// Whether `pager.return_home_after` leaves it alone (`stay`).
    package var stay = false
    /// How large its text is drawn (`size`): text, system and command pages.
    package var size = PageTextSize.normal

    /// A page.
    package init(
        title: String, kind: PageKind, indicatorImage: String? = nil, line: Int = 0,
        duration: PageDuration = .automatic
    ) {
        self.title = title
        self.kind = kind
        self.indicatorImage = indicatorImage
        self.line = line
        self.duration = duration
    }
}

/// How a page whose value is pushed (`source = "push"`) treats it.
package struct PushedValue: Hashable, Sendable {
    /// A value not set again for this long is marked stale; nil: never.
    package var staleAfter: TimeSpan?
    /// Where an MQTT-fed value comes from (`source = "mqtt"`); nil for `crownpager set` alone.
    package var mqtt: MQTTSubscription?

    /// A pushed value, stale after `staleAfter`.
    package init(staleAfter: TimeSpan? = nil) { self.staleAfter = staleAfter }
}

/// A font a configuration names (`font = "..."`), loaded: a built-in name or a BDF file's path.
package struct ConfiguredFont: Hashable, Sendable {
    /// The name as written, a path resolved against the configuration's folder.
    package var name: String
    /// The font.
    package var font: BitmapFont

    /// A loaded font and its name.
    package init(name: String, font: BitmapFont) {
        self.name = name
        self.font = font
    }
}

/// What a page shows.
package enum PageKind: Hashable, Sendable {
    /// Fixed text, wrapped; taller than the screen when it needs to be.
    case text(String)
    /// The time and date in `strftime`-like formats.
    case clock(time: ClockFormat, date: ClockFormat)
    /// System values, one a line.
    case system([SystemValue], refresh: TimeSpan)
    /// A command's output (argv, no shell).
    case command(CommandSpec)
    /// The last lines of a file.
    case file(path: String, lines: Int, refresh: TimeSpan)
    /// A 1-bit picture.
    case image(ImageSpec)
    /// A bar or dial fed by a value.
    case gauge(GaugeSpec)
}

/// A value read from `/proc`, `/sys` or the system.
package enum SystemValue: Hashable, Sendable {
    /// The CPU's temperature: the thermal zone whose type names the CPU, else zone 0.
    case cpuTemperature
    case load, memory, uptime, hostname
    /// The temperature of the thermal zone named by its type (`cpu-thermal`) or directory
    /// (`thermal_zone2`): `cpu-temperature ZONE`.
    case thermalZone(String)
    /// A battery's or UPS's charge, state and time left, from /sys/class/power_supply: the
    /// supply `name` (its folder), or the first battery or UPS: `battery [NAME]`.
    case battery(String?)
    /// The use of the file system holding `path`.
    case disk(path: String)
    /// The IPv4 address of `interface`; nil: the first interface that is up and not loopback.
    case ipAddress(interface: String?)

    /// The label on a system page.
    package var label: String {
        switch self {
        case .cpuTemperature: return "cpu"
        case .thermalZone(let zone): return zone
        case .battery(let name): return name ?? "battery"
        case .load: return "load"
        case .memory: return "mem"
        case .uptime: return "up"
        case .hostname: return "host"
        case .disk(let path): return path == "/" ? "disk" : path
        case .ipAddress(let interface): return interface ?? "ip"
        }
    }

    /// Whether it is a number a gauge can show.
    package var isNumeric: Bool {
        switch self {
        case .hostname, .ipAddress: return false
        default: return true
        }
    }
}

/// A command to run for a page.
package struct CommandSpec: Hashable, Sendable {
    /// The program and its arguments; no shell unless argv names one.
    package var argv: [String]
    /// How often to run it while its page is visible or next to it.
    package var refresh: TimeSpan
    /// Killed, with its process group, after this long.
    package var timeout: TimeSpan
    /// Output beyond this many bytes is dropped.
    package var maximumOutputBytes: Int

    /// A command.
    package init(argv: [String], refresh: TimeSpan, timeout: TimeSpan, maximumOutputBytes: Int = 4096) {
        self.argv = argv
        self.refresh = refresh
        self.timeout = timeout
        self.maximumOutputBytes = maximumOutputBytes
    }
}

/// A picture file, already decoded (so `check` finds a bad one).
package struct ImageSpec: Hashable, Sendable {
    /// The path as written.
    package var path: String
    /// The picture.
    package var bitmap: Bitmap
}

/// Where a gauge's number comes from.
package enum ValueSource: Hashable, Sendable {
    case system(SystemValue)
    /// The first number in a command's output.
    case command(CommandSpec)
    /// The first number in a file (e.g. a /sys attribute).
    case file(path: String)
    /// The number `crownpager set` gives (`PageSpec.push`).
    case push
}

/// A bar or a dial.
package struct GaugeSpec: Hashable, Sendable {
    /// What feeds it.
    package var source: ValueSource
    /// The value at the empty end.
    package var minimum: Double
    /// The value at the full end.
    package var maximum: Double
    /// Printed after the value.
    package var unit: String
    /// `bar` or `dial`.
    package var isDial: Bool
    /// How often to read the value.
    package var refresh: TimeSpan

    /// A gauge.
    package init(source: ValueSource, minimum: Double, maximum: Double, unit: String, isDial: Bool, refresh: TimeSpan) {
        self.source = source
        self.minimum = minimum
        self.maximum = maximum
        self.unit = unit
        self.isDial = isDial
        self.refresh = refresh
    }
}
