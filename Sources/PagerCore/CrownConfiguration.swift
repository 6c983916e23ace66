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
    /// How far the content gives at the first and last page, and how fast it springs back.
    public var rubberBand: RubberBandStiffness
    /// Pixels the content moves for a whole page of detents that has not turned it yet: each
    /// detent short of a page nudges it by 1/`detentsPerPage` of this.
    public var nudgeDistance: Int

    /// Creates a configuration.
    public init(
        detentsPerPage: Int = 1, longPressDuration: TimeSpan = .milliseconds(600),
        detentMemory: TimeSpan = .milliseconds(800), scrubInterval: TimeSpan = .milliseconds(90),
        scrubDetents: Int = 3, allowsScrubbing: Bool = true, accelerationInterval: TimeSpan? = .milliseconds(40),
        idleDelay: TimeSpan = .milliseconds(300), rubberBand: RubberBandStiffness = .medium, nudgeDistance: Int = 6
    ) {
        self.detentsPerPage = max(1, detentsPerPage)
        self.longPressDuration = longPressDuration
        self.detentMemory = detentMemory
        self.scrubInterval = scrubInterval
        self.scrubDetents = max(2, scrubDetents)
        self.allowsScrubbing = allowsScrubbing
        self.accelerationInterval = accelerationInterval
        self.idleDelay = idleDelay
        self.rubberBand = rubberBand
        self.nudgeDistance = max(0, nudgeDistance)
    }
}

/// The Digital Crown's sensitivity presets, as detents of a 20-detent knob per page.
///
/// High moves a page a detent (20 a revolution, the default); medium needs two (10 a
/// revolution); low three (about 7 a revolution, a deliberate quarter-turn for two pages).
public enum CrownSensitivity: String, CaseIterable, Hashable, Sendable {
    /// Three detents a page.
    case low
    /// Two detents a page.
    case medium
    /// One detent a page.
    case high

    /// The detents a page takes at this sensitivity.
    public var detentsPerPage: Int {
        switch self {
        case .low: return 3
        case .medium: return 2
        case .high: return 1
        }
    }
}
