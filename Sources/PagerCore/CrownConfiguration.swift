import CrownVocabulary

/// How crown facts turn into gestures; the defaults feel right on a 20-detent encoder.
///
/// A deliberate click of such a knob comes 150 ms or more after the one before; a flick of
/// the wrist turns five to twenty detents in well under a second, 20 to 70 ms apart.
public struct CrownConfiguration: Hashable, Sendable {
    /// Detents needed to move one page (sensitivity): 1 moves a page per click.
    public var detentsPerPage: Int
    /// How long the button must be held to count as a long press.
    public var longPressDuration: TimeSpan
    /// Leftover detents older than this are forgotten, so a half-turn yesterday does not count today.
    public var detentMemory: TimeSpan
    /// Detents this close together belong to one fast turn.
    public var scrubInterval: TimeSpan
    /// This many detents in one fast turn make it scrubbing (a continuous interaction).
    public var scrubDetents: Int
    /// Whether fast turning scrubs at all; off for the minimal background style.
    public var allowsScrubbing: Bool
    /// While scrubbing, detents closer than this count double, and closer than half of it four times; nil turns acceleration off.
    public var accelerationInterval: TimeSpan?
    /// The crown is idle once no detent has come for this long: the interaction ends.
    public var idleDelay: TimeSpan

    /// Creates a configuration.
    public init(
        detentsPerPage: Int = 1, longPressDuration: TimeSpan = .milliseconds(600),
        detentMemory: TimeSpan = .milliseconds(800), scrubInterval: TimeSpan = .milliseconds(90),
        scrubDetents: Int = 3, allowsScrubbing: Bool = true, accelerationInterval: TimeSpan? = .milliseconds(40),
        idleDelay: TimeSpan = .milliseconds(300)
    ) {
        self.detentsPerPage = max(1, detentsPerPage)
        self.longPressDuration = longPressDuration
        self.detentMemory = detentMemory
        self.scrubInterval = scrubInterval
        self.scrubDetents = max(2, scrubDetents)
        self.allowsScrubbing = allowsScrubbing
        self.accelerationInterval = accelerationInterval
        self.idleDelay = idleDelay
    }
}
