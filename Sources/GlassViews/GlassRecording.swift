import CrownVocabulary
import PagerGraphics

/// The glass over real time as an animated GIF, written as it goes: each picture stays until the
/// next one came, and the file's delays follow the real clock without drifting.
///
/// GIF counts delays in hundredths of a second, and browsers show a delay under 2 hundredths as
/// 10 (a 60 Hz slide would crawl at a sixth of its speed), so a picture that stood less than 20 ms
/// gives its place to the next one: the file shows at most 50 pictures a second. Each delay is
/// the real time since the start, rounded, less what the file already covers, so rounding never
/// adds up.
package struct GlassRecording {
    /// The shortest delay written, in hundredths of a second.
    package static let shortestDelay = 2
    /// The last picture stays at least this long before the animation starts again.
    package static let finalHold = TimeSpan(nanoseconds: 1_000_000_000)

    private var gif: AnimatedGIF
    private var start: Timestamp?
    /// The picture on the glass since `since`, not written yet.
    private var pending: (glass: Bitmap, since: Timestamp)?
    /// Hundredths of a second the pictures written so far cover.
    private var covered: Int64 = 0
    /// Pictures written, and pictures that gave their place to a later one.
    package private(set) var framesWritten = 0
    /// Pictures that stood under 20 ms and were replaced by the next.
    package private(set) var framesMerged = 0

    /// A recording of a `width` x `height` glass, each pixel `scale` x `scale` in `palette`'s colours.
    package init(width: Int, height: Int, scale: Int = 2, palette: OLEDPalette = .white) {
        gif = AnimatedGIF(width: width, height: height, scale: scale, lit: palette.lit, dark: palette.dark)
    }

    /// The bytes to append now that `glass` is on the glass at `instant` (the header with the first picture).
    package mutating func add(_ glass: Bitmap, at instant: Timestamp) -> [UInt8] {
        guard let start, let shown = pending else {
            start = instant
            pending = (glass, instant)
            return gif.header()
        }
        if shown.glass == glass { return [] }
        let delay = Self.centiseconds(instant - start) - covered
        guard delay >= Int64(Self.shortestDelay) else {
            // Too short for a GIF delay: the newer picture takes this one's place and time.
            pending = (glass, shown.since)
            framesMerged += 1
            return []
        }
        pending = (glass, instant)
        return write(shown.glass, delay: delay)
    }

    /// The bytes that end the file at `instant`: the last picture, held at least `finalHold`, and the trailer.
    package mutating func finish(at instant: Timestamp) -> [UInt8] {
        guard let start, let shown = pending else { return [] }
        pending = nil
        let delay = max(Self.centiseconds(instant - start) - covered, Self.centiseconds(Self.finalHold))
        return write(shown.glass, delay: delay) + AnimatedGIF.trailer
    }

    /// The picture for `delay` hundredths, as several frames when one cannot carry it.
    private mutating func write(_ glass: Bitmap, delay: Int64) -> [UInt8] {
        var bytes: [UInt8] = []
        var left = delay
        repeat {
            let part = min(left, Int64(AnimatedGIF.longestDelay))
            bytes += gif.frame(glass, delay: Int(part))
            framesWritten += 1
            covered += part
            left -= part
        } while left > 0
        return bytes
    }

    /// `span` in hundredths of a second, rounded to the nearest.
    static func centiseconds(_ span: TimeSpan) -> Int64 {
        (max(0, span.nanoseconds) + 5_000_000) / 10_000_000
    }
}
