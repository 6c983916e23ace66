import CrownVocabulary
import PagerCore
import PagerGraphics
import SSD1306

/// Answers the reads a headless run's engine asks for: fixed samples for reproducible pictures,
/// or this machine's values (the shell's sampler).
package protocol PageSampler {
    /// The local time at `instant`.
    mutating func clock(at instant: Timestamp) -> ClockReading
    /// The local clock at `instant` and its offset changes ahead, for the night schedule. By
    /// default `clock(at:)`'s time of day, with no change ahead for two days.
    mutating func localClock(at instant: Timestamp) -> LocalClock
    /// The answer to `read` at `instant`, or nil when it comes later (the Linux shell's commands
    /// end in their own time, and it feeds `.commandFinished` then); a headless run waits for it.
    mutating func answer(_ read: PageRead, at instant: Timestamp) -> EngineInput?
    /// Every fallback glyph found so far, once `scalars` (`Effects.glyphsWanted`) are looked
    /// for; nil when none of them was found. By default none is: they draw as boxes.
    mutating func glyphs(for scalars: [Unicode.Scalar]) -> BitmapFont?
}

extension PageSampler {
    /// `clock(at:)`'s time of day, its offset unchanged for the two days ahead: samplers with
    /// fixed or virtual clocks; the Linux shell's reads the time zone's changes.
    package mutating func localClock(at instant: Timestamp) -> LocalClock {
        let reading = clock(at: instant)
        return LocalClock(
            readAt: instant, secondOfDay: reading.hour * 3600 + reading.minute * 60 + reading.second,
            knownUntil: instant + LocalClock.lookAhead)
    }

    /// No glyphs: characters misc-fixed lacks draw as boxes.
    package mutating func glyphs(for scalars: [Unicode.Scalar]) -> BitmapFont? { nil }
}
