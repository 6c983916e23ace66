import CrownInput
import CrownVocabulary
import PagerConfig
import PagerCore
import SSD1306

/// Where the panel is: an I2C bus, an SPI device, or the terminal mock (`display.bus`).
package enum DisplayBus: Hashable, Sendable {
    /// `/dev/i2c-N`.
    case i2c(Int)
    /// `/dev/spidevB.C`.
    case spi(SPIDevice)
    /// The emulator drawn in the terminal.
    case mock

    /// The I2C bus number, if it is one.
    package var i2cBus: Int? {
        guard case .i2c(let bus) = self else { return nil }
        return bus
    }

    /// As `display.bus` writes it: `1`, `"spi0.0"`, `"mock"`.
    var toml: String {
        switch self {
        case .i2c(let bus): return String(bus)
        case .spi(let device): return "\"" + device.description + "\""
        case .mock: return "\"mock\""
        }
    }
}

/// The settings table: every setting of `crownpager.toml` outside its pages, one typed row each.
///
/// Adding a setting is a row here (and its place in `rows`); the field it sets takes its default
/// from the row, and the parser, the default file, the references and the manual follow. So does
/// its flag: `run` and `render` read every flag of the table that no command declares itself
/// (`RunOverrides.set(flags:)`), and list them in `--help`. The few a command declares
/// (`SettingFlag.isDeclared`: the panel's bus and lines, which the doctor reads too, and an image
/// loaded from the working directory) take the row's help and rule all the same.
package enum Settings {
    /// `[display]`: the panel and how it is driven.
    package static let displayPanel = Setting<SSD1306Panel>(
        "display.panel", .choice(SSD1306Panel.all.map { $0.name } + ["ssd1306-128x64", "ssd1306-128x32"]),
        SettingCodec<String>.string.map(
            { name in SSD1306Panel.all.first { $0.name == name || "ssd1306-" + $0.name == name } }, { $0.name }),
        default: SSD1306Panel.ssd1306_128x64, flag: SettingFlag("--panel", declared: true), reloadable: false,
        "The panel's controller and size: an SSD1306 of 128x64, 128x32, 96x16, 72x40 or 64x48, the 1.3\" "
            + "sh1106-128x64, the 2.42\" ssd1309-128x64, or an SH1107's sh1107-64x128 or sh1107-128x128"
    ) { $0.display.panel = $1 }
    package static let displayBus = Setting<DisplayBus>(
        "display.bus",
        .special(described: "an I2C bus number such as 1 (/dev/i2c-1), \"spi0.0\" (/dev/spidev0.0), or \"mock\""),
        busCodec, default: DisplayBus.i2c(1),
        flag: SettingFlag(
            "--i2c-bus",
            takes: "a bus number from 0 to 1023; --spi 0.0 drives a panel on SPI, --mock draws in the terminal",
            declared: true),
        reloadable: false,
        "The bus of the panel: 1 is /dev/i2c-1 (pins 3 and 5); \"spi0.0\" is SPI0 with CE0 (pin 24), with DC and "
            + "RES on dc_line and reset_line; \"mock\" draws in the terminal instead"
    ) { configuration, bus in
        switch bus {
        case .i2c(let number):
            configuration.display.bus = number
            configuration.display.spi = nil
        case .spi(let device): configuration.display.spi = device
        case .mock: configuration.display.bus = nil
        }
    }
    package static let displayAddress = Setting<I2CAddress>(
        "display.address", .special(described: I2CAddress.rule), addressCodec, default: I2CAddress.ssd1306Primary,
        flag: SettingFlag("--address", declared: true), reloadable: false,
        "The display's I2C address: 0x3c on most modules, 0x3d when strapped"
    ) { $0.display.address = $1 }
    package static let displayRotation = Setting<DisplayRotation>(
        "display.rotation", .integerChoice([0, 180], described: "0 or 180"),
        SettingCodec<Int>.integer.map({ DisplayRotation(degrees: $0) }, { $0.degrees }),
        default: DisplayRotation.normal,
        flag: SettingFlag("--rotate"), "Degrees to turn the picture, for a panel mounted upside down"
    ) { $0.display.rotation = $1 }
    package static let displayBrightness = Setting<Int>(
        "display.brightness", .integer(0...100), .integer, default: 80, flag: SettingFlag("--brightness"),
        "Brightness while in use: contrast, pre-charge and VCOMH together, so it dims for real"
    ) { $0.display.brightness = $1 }
    package static let displayDimBrightness = Setting<Int>(
        "display.dim_brightness", .integer(0...100), .integer, default: 5, "Brightness once dimmed"
    ) { $0.display.dimBrightness = $1 }
    package static let displayDimAfter = Setting<TimeSpan?>(
        "display.dim_after", .duration(minimumMilliseconds: 1000, allowsNever: true), never,
        default: TimeSpan.milliseconds(60_000), "Without a turn or press for this long, dim to dim_brightness"
    ) { $0.display.dimAfter = $1 }
    package static let displayOffAfter = Setting<TimeSpan?>(
        "display.off_after", .duration(minimumMilliseconds: 1000, allowsNever: true), never,
        default: TimeSpan.milliseconds(600_000), "Then switch off (OLEDs burn in); the first detent only wakes it"
    ) { $0.display.offAfter = $1 }
    package static let displayPixelShift = Setting<TimeSpan?>(
        "display.pixel_shift", .duration(minimumMilliseconds: 10_000, allowsNever: true), never, default: nil,
        flag: SettingFlag("--pixel-shift"),
        "Every this long, move the picture a pixel along a slow orbit within a pixel of its place, so no pixel stays lit"
    ) { $0.display.pixelShift = $1 }
    package static let displayInvertEvery = Setting<TimeSpan?>(
        "display.invert_every", .duration(minimumMilliseconds: 10_000, allowsNever: true), never, default: nil,
        "Every this long, swap lit and dark pixels (A6h/A7h), so every pixel wears alike"
    ) { $0.display.invertEvery = $1 }
    package static let displayBusHertz = Setting<Int>(
        "display.bus_hz", .integer(10_000...3_400_000), .integer, default: 400_000,
        "The bus clock set by dtparam=i2c_arm_baudrate in config.txt; pacing starts from it, then learns the real one"
    ) { $0.display.busHertz = $1 }
    package static let displayFont = Setting<String?>(
        "display.font", .string, SettingCodec<String>.string.optional(), default: nil, example: "\"fixed6x10\"",
        "Every page's text and the title list: fixed5x8, fixed6x10, fixed10x20 or a BDF file; misc-fixed 6x10 and Unifont fill in"
    ) { configuration, name in
        // Loaded with the pages, which read files (`loadFont`).
        configuration.display.font = name.map { ConfiguredFont(name: $0, font: .fixed6x10) }
    }
    package static let displayGPIOChip = Setting<String>(
        "display.gpio_chip", .string, .string, default: "/dev/gpiochip0", reloadable: false,
        "The GPIO chip of an SPI panel's DC and RES lines"
    ) { $0.display.gpioChip = $1 }
    package static let displayDataCommandLine = Setting<Int>(
        "display.dc_line", .integer(0...511), .integer, default: 24, flag: SettingFlag("--dc-line", declared: true),
        reloadable: false, "The line of an SPI panel's DC (data/command): GPIO24 is pin 18"
    ) { $0.display.dataCommandLine = $1 }
    package static let displayResetLine = Setting<Int?>(
        "display.reset_line", .special(described: "a line from 0 to 511, or \"none\" when RES is tied high"),
        resetLineCodec, default: 25, flag: SettingFlag("--reset-line", declared: true), reloadable: false,
        "The line of an SPI panel's RES, pulsed low at start: GPIO25 is pin 22"
    ) { $0.display.resetLine = $1 }
    package static let displaySPIHertz = Setting<Int>(
        "display.spi_hz", .integer(100_000...32_000_000), .integer, default: 8_000_000, reloadable: false,
        "An SPI panel's clock: the SSD1306 allows 10 MHz; pacing learns the real rate"
    ) { $0.display.spiHertz = $1 }

    /// `[crown]`: the knob.
    package static let crownSource = Setting<String>(
        "crown.source", .choice(["gpio", "evdev", "keyboard"]), .string, default: "gpio", reloadable: false,
        "Where the knob is read: gpio (libgpiod), evdev (the kernel's rotary-encoder overlay) or keyboard"
    ) { configuration, source in
        configuration.crown.source = source
        // Named in the file, a knob that cannot be had is an error, not a warning.
        configuration.crown.sourceIsExplicit = true
    }
    package static let crownChip = Setting<String>(
        "crown.chip", .string, .string, default: "/dev/gpiochip0", flag: SettingFlag("--chip", declared: true),
        reloadable: false,
        "The GPIO chip the encoder is wired to"
    ) { $0.crown.chip = $1 }
    package static let crownLineA = Setting<Int>(
        "crown.lines.a", .integer(0...511), .integer, default: 17, flag: SettingFlag("--line-a", declared: true),
        reloadable: false,
        "The line of the encoder's A (CLK): GPIO17 is pin 11"
    ) { $0.crown.lineA = $1 }
    package static let crownLineB = Setting<Int>(
        "crown.lines.b", .integer(0...511), .integer, default: 27, flag: SettingFlag("--line-b", declared: true),
        reloadable: false,
        "The line of the encoder's B (DT): GPIO27 is pin 13"
    ) { $0.crown.lineB = $1 }
    package static let crownLineButton = Setting<Int>(
        "crown.lines.button", .integer(0...511), .integer, default: 22,
        flag: SettingFlag("--line-button", declared: true),
        reloadable: false, "The line of the push button (SW): GPIO22 is pin 15"
    ) { $0.crown.lineButton = $1 }
    package static let crownEvdev = Setting<String>(
        "crown.evdev", .string, .string, default: "/dev/input/event0", flag: SettingFlag("--evdev", declared: true),
        reloadable: false,
        "The kernel's input device of the knob (the rotary-encoder overlay), read with source = \"evdev\""
    ) { $0.crown.evdevPath = $1 }
    package static let crownStepsPerDetent = Setting<QuadratureStepping>(
        "crown.steps_per_detent", .integerChoice([4, 2, 1], described: "4 (KY-040, most EC11), 2 or 1"),
        SettingCodec<Int>.integer.map(
            { steps in QuadratureStepping.allCases.first { $0.transitionsPerDetent == steps } },
            { $0.transitionsPerDetent }),
        default: QuadratureStepping.full, reloadable: false,
        "Quadrature steps per detent: 4 for a KY-040 and most EC11s, 2 for 30-detent EC11s"
    ) { $0.crown.stepping = $1 }
    package static let crownInverted = Setting<Bool>(
        "crown.inverted", .boolean, .boolean, default: false, reloadable: false, "Count a clockwise turn as backwards"
    ) { $0.crown.inverted = $1 }
    package static let crownAcceleration = Setting<Bool>(
        "crown.acceleration", .boolean, .boolean, default: true, flag: SettingFlag("--no-acceleration", sets: "false"),
        "Pages per detent grow while turning fast"
    ) { $0.crown.acceleration = $1 }
    package static let crownWrap = Setting<Bool>(
        "crown.wrap", .boolean, .boolean, default: false, flag: SettingFlag("--wrap", sets: "true"),
        "From the last page on to the first and back"
    ) { $0.crown.wrap = $1 }
    package static let crownSide = Setting<CrownSide>(
        "crown.side", .choice(CrownSide.allCases.map { $0.rawValue }), .named, default: CrownSide.right,
        flag: SettingFlag("--crown-side"),
        "Where the knob sits: right, left, or bottom (horizontal paging, dots centred at the bottom)"
    ) { $0.crown.side = $1 }
    package static let crownSensitivity = Setting<CrownSensitivity>(
        "crown.sensitivity", .choice(CrownSensitivity.allCases.map { $0.rawValue }), .named,
        default: CrownSensitivity.high, flag: SettingFlag("--sensitivity"),
        "Detents a page, as the Digital Crown's presets: high 1, medium 2, low 3 (20, 10 or 7 pages a turn of a 20-detent knob)"
    ) { configuration, sensitivity in
        // The preset means its detents a page, unless detents_per_page (read after it) says otherwise.
        configuration.crown.sensitivity = sensitivity
        configuration.crown.detentsPerPage = sensitivity.detentsPerPage
    }
    package static let crownDetentsPerPage = Setting<Int?>(
        "crown.detents_per_page", .integer(1...20), SettingCodec<Int>.integer.optional(), default: nil,
        example: "2", flag: SettingFlag("--detents-per-page"),
        "Detents of the crown needed to move one page; set, it overrides sensitivity"
    ) { configuration, detents in
        // Unset, the sensitivity's count stands.
        if let detents { configuration.crown.detentsPerPage = detents }
    }
    package static let crownRubberBand = Setting<RubberBandStiffness>(
        "crown.rubber_band", .choice(RubberBandStiffness.allCases.map { $0.rawValue }), .named,
        default: RubberBandStiffness.medium, flag: SettingFlag("--rubber-band"),
        "How the content gives at the first and last page: soft 8 pixels over 400 ms, medium 4 over 300, stiff 2 over 200"
    ) { $0.crown.rubberBand = $1 }

    /// `[indicator]`: the page indicator.
    package static let indicatorStyle = Setting<PageControlBackgroundStyle>(
        "indicator.style", .choice(PageControlBackgroundStyle.allCases.map { $0.rawValue }), .named,
        default: PageControlBackgroundStyle.automatic, flag: SettingFlag("--background-style"),
        "The plate behind the dots: automatic (while turning), prominent (always) or minimal (never; no scrubbing)"
    ) { $0.indicator.style = $1 }
    package static let indicatorImage = Setting<String?>(
        "indicator.image", .string, SettingCodec<String>.string.optional(), default: nil, example: "\"star\"",
        flag: SettingFlag("--indicator-image", declared: true),
        "The image of every dot: location, house, bookmark, star, or a PBM, XBM or PNG file of at most 7x7"
    ) { $0.indicator.image = $1 }
    package static let indicatorMaximumDots = Setting<Int?>(
        "indicator.max_dots", .integer(1...20), SettingCodec<Int>.integer.optional(), default: nil, example: "7",
        flag: SettingFlag("--max-dots"),
        "The most dots shown at once; unset, 7 on a 64-row panel and as many as fit on 32 rows"
    ) { $0.indicator.maximumDots = $1 }
    package static let indicatorHidesForSinglePage = Setting<Bool>(
        "indicator.hides_for_single_page", .boolean, .boolean, default: false,
        flag: SettingFlag("--hides-for-single-page", sets: "true"), "No indicator when there is only one page"
    ) { $0.indicator.hidesForSinglePage = $1 }

    /// `[timer]`: timed pages.
    package static let timerDuration = Setting<TimeSpan?>(
        "timer.duration", .duration(minimumMilliseconds: 100, allowsNever: true), never, default: nil,
        flag: SettingFlag("--page-duration", takes: "a time such as 3s or 500ms, at least 100ms"),
        "How long each page stays before the next comes by itself, its dot filling; a page's own duration wins"
    ) { $0.timer.duration = $1 }
    package static let timerResumeAfter = Setting<TimeSpan?>(
        "timer.resume_after", .duration(minimumMilliseconds: 1000, allowsNever: true), never,
        default: TimeSpan.milliseconds(10_000),
        "A turn or press pauses the timer; this long after the last one it starts the page's full time again"
    ) { $0.timer.resumeAfter = $1 }
    package static let timerLoop = Setting<Bool>(
        "timer.loop", .boolean, .boolean, default: true,
        "After the last page the first comes again; false stops on the last"
    ) { $0.timer.loops = $1 }
    package static let timerDimsWhileAdvancing = Setting<Bool>(
        "timer.dims_while_advancing", .boolean, .boolean, default: false,
        "Let dim_after and off_after dim and switch off the panel while the pages move on by themselves"
    ) { $0.timer.dimsWhileAdvancing = $1 }

    /// Every setting outside the pages, in the order of the default file and of reading.
    static let rows: [SettingRow] = [
        displayPanel.row, displayBus.row, displayAddress.row, displayRotation.row, displayBrightness.row,
        displayDimBrightness.row, displayDimAfter.row, displayOffAfter.row, displayBusHertz.row, displayFont.row,
        displayPixelShift.row, displayInvertEvery.row,
        displayNight.row, displayNightMode.row,
        displayGPIOChip.row, displayDataCommandLine.row, displayResetLine.row, displaySPIHertz.row,
        crownSource.row, crownChip.row, crownLineA.row, crownLineB.row, crownLineButton.row, crownEvdev.row,
        crownStepsPerDetent.row, crownInverted.row, crownAcceleration.row, crownWrap.row, crownSide.row,
        crownSensitivity.row, crownDetentsPerPage.row, crownRubberBand.row,
        indicatorStyle.row, indicatorImage.row, indicatorMaximumDots.row, indicatorHidesForSinglePage.row,
        timerDuration.row, timerResumeAfter.row, timerLoop.row, timerDimsWhileAdvancing.row,
        pagerHome.row, pagerReturnHomeAfter.row,
        mqttHost.row, mqttPort.row, mqttUsername.row, mqttPasswordFile.row, mqttClientID.row, mqttBaseTopic.row,
        mqttKeepalive.row, mqttTLS.row, mqttCAFile.row, mqttCertFile.row, mqttKeyFile.row, mqttDiscovery.row,
        mqttDiscoveryPrefix.row,
        mqttCameraInterval.row,
        webListen.row, webToken.row,
    ]

    /// A duration, or `"never"` for nil.
    static let never = SettingCodec<TimeSpan>.duration.optional(unset: "never")

    /// `bus = 1`, `"spi0.0"` or `"mock"`.
    static let busCodec = SettingCodec<DisplayBus>(
        read: { (table: inout ConfigTable, key: String, type: SettingType) throws(ConfigError) -> DisplayBus? in
            guard let value = table.value(key) else { return nil }
            switch value {
            case .integer(let bus) where (0...1023).contains(bus): return .i2c(Int(bus))
            case .string("mock"): return .mock
            case .string(let text) where text.hasPrefix("spi"):
                if let device = SPIDevice(parsing: text) { return .spi(device) }
            default: break
            }
            return try table.invalid(table.error(key, "expected \(type.allowed), found \(describeFound(value))"))
        },
        toml: { $0.toml },
        parse: { text, _ in Int(text).flatMap { (0...1023).contains($0) ? DisplayBus.i2c($0) : nil } })

    /// `address = 60`, `0x3c`, `"3c"` or `"0x3c"`: TOML has already read an integer's base, and a
    /// string goes through the command line's rule, so a file and `--address` agree.
    static let addressCodec = SettingCodec<I2CAddress>(
        read: { (table: inout ConfigTable, key: String, _: SettingType) throws(ConfigError) -> I2CAddress? in
            guard let value = table.value(key) else { return nil }
            switch value {
            case .integer(let number):
                if let address = I2CAddress(usable: number) { return address }
                let hex = number >= 0 ? " (0x" + String(number, radix: 16) + ")" : ""
                return try table.invalid(
                    table.error(key, "expected \(I2CAddress.rule), found the integer \(number)\(hex)"))
            case .string(let text):
                if let address = I2CAddress(parsing: text) { return address }
            default:
                break
            }
            return try table.invalid(table.error(key, "expected \(I2CAddress.rule), found \(describeFound(value))"))
        },
        toml: { $0.description },
        parse: { text, _ in I2CAddress(parsing: text) })

    /// A GPIO line from 0 to 511, or `"none"` (nil) when RES is tied high.
    static let resetLineCodec = SettingCodec<Int?>(
        read: { (table: inout ConfigTable, key: String, type: SettingType) throws(ConfigError) -> Int?? in
            guard let value = table.value(key) else { return nil }
            switch value {
            case .integer(let line) where (0...511).contains(line): return .some(Int(line))
            case .string("none"): return .some(nil)
            default:
                return try table.invalid(table.error(key, "expected \(type.allowed), found \(describeFound(value))"))
            }
        },
        toml: { line in line.map { String($0) } ?? "\"none\"" },
        parse: { text, _ in
            if text == "none" { return .some(nil) }
            return Int(text).flatMap { (0...511).contains($0) ? .some($0) : nil }
        })
}
