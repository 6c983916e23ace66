import CrownVocabulary
import PagerEngine
import PagerGraphics
import PagerTools

/// The readings of the browser page: the computer's clock (or the sample one, frozen), the sample
/// host's system values, the answer of a command or file page, which runs on the device only,
/// and GNU Unifont's glyphs once the page has handed the font over.
package struct WebPageSampler: PageSampler {
    /// The wall clock the page last gave; nil: the fixed sample clock of `render --frozen`.
    package var wallClock: ClockReading?
    /// What a command or file page shows here, where it cannot run: `render --frozen`'s `42`, or a
    /// mark that it runs on the device.
    package var deviceAnswer: String
    /// GNU Unifont's glyphs in use by the running engine; nil until the page hands the font over
    /// (`WebPager.use(unifont:)`), which it does after its first frame.
    package var unifont: UnifontGlyphs<HexBytes>?
    /// The characters the engine asked for before the font came, in the order asked: it asks for
    /// each only once, so they are answered when the font comes.
    package var unanswered: [Unicode.Scalar] = []

    /// What a command or file page shows on the page when not frozen.
    package static let onDevice = "on device"
    /// What a command or file page shows in `render --frozen`.
    package static let frozenAnswer = "42"

    /// The readings of `render --frozen`: 10:09:30, a sample host, `42` for commands and files.
    package init(wallClock: ClockReading? = nil, deviceAnswer: String = frozenAnswer) {
        self.wallClock = wallClock
        self.deviceAnswer = deviceAnswer
    }

    /// `render --frozen`'s readings from now on, the font kept.
    package mutating func freeze() {
        wallClock = nil
        deviceAnswer = Self.frozenAnswer
    }

    package func clock(at instant: Timestamp) -> ClockReading { wallClock ?? SampleReadings.clock }

    package func answer(_ read: PageRead, at instant: Timestamp) -> EngineInput? {
        switch read.source {
        case .file:
            return .fileRead(page: read.page, .text(deviceAnswer))
        case .command:
            return .commandFinished(page: read.page, output: deviceAnswer, status: nil)
        case .system, .action:
            return SamplePageSampler().answer(read, at: instant)
        }
    }

    package mutating func glyphs(for scalars: [Unicode.Scalar]) -> BitmapFont? {
        guard unifont != nil else {
            unanswered += scalars
            return nil
        }
        return unifont.glyphs(for: scalars) { _ in }
    }
}
