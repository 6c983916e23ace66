import CrownVocabulary
import PagerCore
import SSD1306

/// What the command line says about a run, laid over the configuration: a flag given wins over
/// the file, a flag left out keeps the file's value. Applied again after every SIGHUP reload.
public struct RunOverrides: Sendable {
    /// `--panel`.
    public var panel: SSD1306Panel?
    /// `--i2c-bus N`: the real panel on `/dev/i2c-N`.
    public var bus: Int?
    /// `--spi B.C`: the real panel on `/dev/spidevB.C`.
    public var spi: SPIDevice?
    /// `--dc-line`: an SPI panel's D/C# line.
    public var dataCommandLine: Int?
    /// `--reset-line`: an SPI panel's RES# line; `.some(nil)` for `--reset-line none`.
    public var resetLine: Int??
    /// `--mock`: the emulator drawn in this terminal, whatever the file says.
    public var mock = false
    /// `--address`.
    public var address: I2CAddress?
    /// `--rotate`.
    public var rotation: DisplayRotation?
    /// `--brightness`, 0 to 100.
    public var brightness: Int?
    /// `--contrast`, 0 to 255.
    public var contrast: Int?
    /// `--invert`.
    public var inverted = false
    /// `--chip`, `--evdev` or `--keyboard`.
    public var crown: CrownChoice?
    /// `--wrap`.
    public var wrap = false
    /// `--crown-side`.
    public var side: CrownSide?
    /// `--sensitivity`: the preset, and the detents a page it means unless `--detents-per-page` is given too.
    public var sensitivity: CrownSensitivity?
    /// `--detents-per-page`.
    public var detentsPerPage: Int?
    /// `--rubber-band`.
    public var rubberBand: RubberBandStiffness?
    /// `--no-acceleration`.
    public var noAcceleration = false
    /// `--background-style`.
    public var backgroundStyle: PageControlBackgroundStyle?
    /// `--max-dots`.
    public var maximumDots: Int?
    /// `--hides-for-single-page`.
    public var hidesForSinglePage = false
    /// `--display-only`.
    public var displayOnly = false
    /// `--page-duration`: `timer.duration`.
    public var pageDuration: TimeSpan?
    /// `--indicator-image`, loaded.
    public var indicatorImage: IndicatorImage?
    /// `--page-image P=IMAGE`, loaded; pages count from 0.
    public var pageImages: [(page: Int, image: IndicatorImage)] = []

    /// No overrides: the configuration as it is.
    public init() {}

    /// `configuration` with every flag given laid over it.
    public func applied(to configuration: Configuration) -> Configuration {
        var result = configuration
        if let panel { result.display.panel = panel }
        if let bus {
            result.display.bus = bus
            result.display.spi = nil
        }
        if let spi { result.display.spi = spi }
        if let dataCommandLine { result.display.dataCommandLine = dataCommandLine }
        if let resetLine { result.display.resetLine = resetLine }
        if mock { result.display.bus = nil }
        if let address { result.display.address = address }
        if let rotation { result.display.rotation = rotation }
        if let brightness { result.display.brightness = brightness }
        if let contrast { result.display.contrast = contrast }
        if inverted { result.display.isInverted = true }
        if wrap { result.crown.wrap = true }
        if let side { result.crown.side = side }
        if let sensitivity {
            // The flag wins over the file's preset and its exact count alike; --detents-per-page over both.
            result.crown.sensitivity = sensitivity
            result.crown.detentsPerPage = sensitivity.detentsPerPage
        }
        if let detentsPerPage { result.crown.detentsPerPage = detentsPerPage }
        if let rubberBand { result.crown.rubberBand = rubberBand }
        if noAcceleration { result.crown.acceleration = false }
        if let backgroundStyle { result.indicator.style = backgroundStyle }
        if let maximumDots { result.indicator.maximumDots = maximumDots }
        if hidesForSinglePage { result.indicator.hidesForSinglePage = true }
        if displayOnly { result.isDisplayOnly = true }
        if let pageDuration { result.timer.duration = pageDuration }
        return result
    }
}
