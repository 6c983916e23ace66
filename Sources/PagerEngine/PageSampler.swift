import CrownVocabulary
import PagerCore
import PagerGraphics
import SSD1306

/// Answers the reads a headless run's engine asks for: fixed samples for reproducible pictures,
/// or this machine's values (the shell's sampler).
package protocol PageSampler {
    /// The local time at `instant`.
    mutating func clock(at instant: Timestamp) -> ClockReading
    /// The answer to `read` at `instant`, or nil when it comes later (the Linux shell's commands
    /// end in their own time, and it feeds `.commandFinished` then); a headless run waits for it.
    mutating func answer(_ read: PageRead, at instant: Timestamp) -> EngineInput?
    /// Every fallback glyph found so far, once `scalars` (`Effects.glyphsWanted`) are looked
    /// for; nil when none of them was found. By default none is: they draw as boxes.
    mutating func glyphs(for scalars: [Unicode.Scalar]) -> BitmapFont?
}

extension PageSampler {
    /// No glyphs: characters misc-fixed lacks draw as boxes.
    package mutating func glyphs(for scalars: [Unicode.Scalar]) -> BitmapFont? { nil }
}
