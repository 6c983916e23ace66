import CrownInput
import CrownVocabulary
import PagerConfig
import PagerCore
import PagerGraphics
import SSD1306

/// Everything `crownpager.toml` says: the display, the crown, the indicator and the pages.
///
/// Read with `Configuration(parsing:file:)`; every mistake is a `ConfigError` naming the file,
/// line and key. `Configuration.builtIn` is what a Pi wired as in `Hardware/` runs with no file.
package struct Configuration: Sendable {
    /// The panel and how it is driven.
    package var display: DisplaySection = DisplaySection()
    /// The knob.
    package var crown: CrownSection = CrownSection()
    /// The page indicator.
    package var indicator: IndicatorSection = IndicatorSection()
    /// Timed pages.
    package var timer: TimerSection = TimerSection()
    /// Where the pager goes by itself (`[pager]`).
    package var pager: PagerSection = PagerSection()
    /// The MQTT broker (`[mqtt]`).
    package var mqtt: MQTTSection = MQTTSection()
    /// The live mirror over HTTP (`[web]`).
    package var web: WebSection = WebSection()
    /// What `check` warns of without refusing the file, each at its line (`[web]`'s open listen).
    package var warnings: [ConfigError] = []
    /// The pages, in order.
    package var pages: [PageSpec] = []
    /// Where it came from: a path, or `built-in`.
    package var file = "built-in"
    /// The folder relative image paths are read from.
    package var directory = "."
    /// The crown does not move the pages (`--display-only`); the file has no key for it.
    package var isDisplayOnly = false

    /// An empty configuration with every default.
    package init() {}

    /// The pager's behaviour: wrap-around from `[crown]`, timed pages from `[timer]`, display-only from the command line.
    package var pagerConfiguration: PagerConfiguration {
        PagerConfiguration(
            wrapsAround: crown.wrap, isDisplayOnly: isDisplayOnly, pageDuration: timer.duration,
            timerResumeDelay: timer.resumeAfter, resetsToInitialPageAfterEnd: timer.loops)
    }
}

/// `[display]`.
package struct DisplaySection: Hashable, Sendable {
    /// The panel's controller and size.
    package var panel: SSD1306Panel = Settings.displayPanel.defaultValue
    /// The I2C bus (`/dev/i2c-N`); nil runs the terminal mock.
    package var bus: Int? = Settings.displayBus.defaultValue.i2cBus
    /// The SPI device of a panel on SPI (`display.bus = "spi0.0"`), used instead of `bus` unless that is the mock.
    package var spi: SPIDevice?
    /// The GPIO chip of an SPI panel's D/C# and RES# lines.
    package var gpioChip: String = Settings.displayGPIOChip.defaultValue
    /// The line of an SPI panel's D/C#: GPIO24 (pin 18).
    package var dataCommandLine: Int = Settings.displayDataCommandLine.defaultValue
    /// The line of an SPI panel's RES#, pulsed at start: GPIO25 (pin 22); nil when RES# is tied high.
    package var resetLine: Int? = Settings.displayResetLine.defaultValue
    /// An SPI panel's clock, in hertz (the SSD1306 allows 10 MHz, datasheet 13).
    package var spiHertz: Int = Settings.displaySPIHertz.defaultValue
    /// The display's address.
    package var address: I2CAddress = Settings.displayAddress.defaultValue
    /// 0 or 180 degrees.
    package var rotation: DisplayRotation = Settings.displayRotation.defaultValue
    /// Brightness while in use, 0 to 100.
    package var brightness: Int = Settings.displayBrightness.defaultValue
    /// Brightness once dimmed, 0 to 100.
    package var dimBrightness: Int = Settings.displayDimBrightness.defaultValue
    /// Dim after this long without a turn or press; nil never dims.
    package var dimAfter: TimeSpan? = Settings.displayDimAfter.defaultValue
    /// Switch off after this long without a turn or press (OLEDs burn in); nil never.
    package var offAfter: TimeSpan? = Settings.displayOffAfter.defaultValue
    /// The hours of the night by the local clock (`display.night`); nil: no night.
    package var night: NightSchedule? = Settings.displayNight.defaultValue
    /// What the night does to the panel: dims it or switches it off.
    package var nightMode: NightMode = Settings.displayNightMode.defaultValue
    /// Move the picture a pixel along its orbit this often (burn-in care); nil never.
    package var pixelShift: TimeSpan? = Settings.displayPixelShift.defaultValue
    /// Swap lit and dark pixels this often (burn-in care); nil never.
    package var invertEvery: TimeSpan? = Settings.displayInvertEvery.defaultValue
    /// The bus clock set in `config.txt`, for frame pacing: 100000, 400000 or 1000000.
    package var busHertz: Int = Settings.displayBusHertz.defaultValue
    /// The font every page's text and the title list draw in first (`display.font`); nil is misc-fixed 6x10.
    package var font: ConfiguredFont?
    /// Contrast alone, 0 to 255, applied after `brightness` (`--contrast`); the file sets `brightness`.
    package var contrast: Int?
    /// Lit pixels dark and dark pixels lit (`--invert`).
    package var isInverted = false

    /// The clock frame pacing starts from, as an I2C clock (the pacer counts 9 clocks a byte):
    /// `busHertz` on I2C; on SPI, which clocks 8 bits a byte, `spiHertz` times 9/8. The pacer
    /// caps what it models at 5 MHz and learns the real rate from the writes either way.
    package var pacingHertz: Int {
        guard bus != nil, spi != nil else { return busHertz }
        return spiHertz / 8 * 9
    }

    /// How the panel is reached: what a reload cannot change without a restart.
    package var connection: DisplayConnection {
        DisplayConnection(
            bus: bus, spi: spi, address: address, gpioChip: gpioChip, dataCommandLine: dataCommandLine,
            resetLine: resetLine, spiHertz: spiHertz)
    }

    /// The settings the driver applies at start.
    package var settings: DisplaySettings {
        DisplaySettings(
            rotation: rotation, brightness: DisplayBrightness(percent: brightness),
            contrast: contrast.map { UInt8(clamping: $0) },
            isInverted: isInverted)
    }
}

/// The settings that say how the panel is reached, compared whole at a reload.
package struct DisplayConnection: Hashable, Sendable {
    /// The I2C bus number, nil for the terminal mock.
    package var bus: Int?
    /// The SPI device, when the panel is on SPI.
    package var spi: SPIDevice?
    /// The I2C address.
    package var address: I2CAddress
    /// The GPIO chip of the SPI panel's DC and RESET lines.
    package var gpioChip: String
    /// The SPI panel's DC line.
    package var dataCommandLine: Int
    /// The SPI panel's RESET line, nil when none is wired.
    package var resetLine: Int?
    /// The SPI clock.
    package var spiHertz: Int
}

/// `[crown]`: read by the GPIO crown (`chip`, the three lines, `steps_per_detent`) and by the pager.
package struct CrownSection: Hashable, Sendable {
    /// Where the knob is read: `gpio` (libgpiod), `evdev` (the kernel's overlays) or `keyboard`.
    package var source: String = Settings.crownSource.defaultValue
    /// Whether the file says `source`: then a knob that cannot be had is an error, not a warning.
    package var sourceIsExplicit = false
    /// The GPIO chip, e.g. `/dev/gpiochip0`.
    package var chip: String = Settings.crownChip.defaultValue
    /// The encoder's A (CLK) line offset.
    package var lineA: Int = Settings.crownLineA.defaultValue
    /// The encoder's B (DT) line offset.
    package var lineB: Int = Settings.crownLineB.defaultValue
    /// The push button's line offset.
    package var lineButton: Int = Settings.crownLineButton.defaultValue
    /// With `source = "evdev"`: the input device.
    package var evdevPath: String = Settings.crownEvdev.defaultValue
    /// Transitions per detent: 4 (full), 2 (half) or 1 (quarter).
    package var stepping: QuadratureStepping = Settings.crownStepsPerDetent.defaultValue
    /// Count clockwise as backwards.
    package var inverted: Bool = Settings.crownInverted.defaultValue
    /// Pages per detent grow while scrubbing fast.
    package var acceleration: Bool = Settings.crownAcceleration.defaultValue
    /// From the last page to the first and back.
    package var wrap: Bool = Settings.crownWrap.defaultValue
    /// Where the knob sits: right, left or bottom.
    package var side: CrownSide = Settings.crownSide.defaultValue
    /// The sensitivity preset the file names; `detentsPerPage` holds what it means unless set too.
    package var sensitivity: CrownSensitivity = Settings.crownSensitivity.defaultValue
    /// Detents per page: the sensitivity's, or `detents_per_page` (or `--detents-per-page`) when set.
    package var detentsPerPage: Int =
        Settings.crownDetentsPerPage.defaultValue ?? Settings.crownSensitivity.defaultValue.detentsPerPage
    /// How the content gives at the first and last page.
    package var rubberBand: RubberBandStiffness = Settings.crownRubberBand.defaultValue

    /// The defaults: a KY-040 on GPIO17, 27 and 22 of `/dev/gpiochip0`.
    package init() {}

    /// The interpreter's settings.
    package var crownConfiguration: CrownConfiguration {
        var configuration = CrownConfiguration(detentsPerPage: detentsPerPage, rubberBand: rubberBand)
        if !acceleration { configuration.accelerationInterval = nil }
        return configuration
    }
}

/// `[indicator]`.
package struct IndicatorSection: Hashable, Sendable {
    /// When the plate behind the dots shows.
    package var style: PageControlBackgroundStyle = Settings.indicatorStyle.defaultValue
    /// A built-in name or an image file for every dot.
    package var image: String? = Settings.indicatorImage.defaultValue
    /// The most dots at once.
    package var maximumDots: Int? = Settings.indicatorMaximumDots.defaultValue
    /// No indicator for a single page.
    package var hidesForSinglePage: Bool = Settings.indicatorHidesForSinglePage.defaultValue
}

/// `[timer]`: timed pages, as UIKit's `UIPageControlTimerProgress` does them.
package struct TimerSection: Hashable, Sendable {
    /// How long each page stays before the next comes by itself (`--page-duration`); nil: never.
    package var duration: TimeSpan?
    /// How long after the last turn or press a paused timer starts again; nil: never.
    package var resumeAfter: TimeSpan?
    /// After the last page, the first again; otherwise the timer stops on the last page.
    package var loops: Bool
    /// The screen saver may dim and switch off the panel while the pages move on by themselves.
    package var dimsWhileAdvancing: Bool

    /// The defaults: no page moves on by itself; once timed, a pause lasts 10 s and the pages loop.
    package init(
        duration: TimeSpan? = Settings.timerDuration.defaultValue,
        resumeAfter: TimeSpan? = Settings.timerResumeAfter.defaultValue, loops: Bool = Settings.timerLoop.defaultValue,
        dimsWhileAdvancing: Bool = Settings.timerDimsWhileAdvancing.defaultValue
    ) {
        self.duration = duration
        self.resumeAfter = resumeAfter
        self.loops = loops
        self.dimsWhileAdvancing = dimsWhileAdvancing
    }
}
