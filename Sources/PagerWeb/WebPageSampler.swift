import CrownVocabulary
import PagerEngine
import PagerTools

/// The readings of the browser page: the computer's clock (or the sample one, frozen), the sample
/// host's system values, and the answer of a command or file page, which runs on the device only.
package struct WebPageSampler: PageSampler {
    /// The wall clock the page last gave; nil: the fixed sample clock of `render --frozen`.
    package var wallClock: ClockReading?
    /// What a command or file page shows here, where it cannot run: `render --frozen`'s `42`, or a
    /// mark that it runs on the device.
    package var deviceAnswer: String

    /// What a command or file page shows on the page when not frozen.
    package static let onDevice = "on device"

    /// The readings of `render --frozen`: 10:09:30, a sample host, `42` for commands and files.
    package init(wallClock: ClockReading? = nil, deviceAnswer: String = "42") {
        self.wallClock = wallClock
        self.deviceAnswer = deviceAnswer
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
}
