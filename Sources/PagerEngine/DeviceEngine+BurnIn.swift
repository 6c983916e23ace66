import CrownVocabulary
import PagerSettings
import SSD1306

/// How far burn-in care moved the whole picture from its place, in pixels.
package struct PixelShift: Hashable, Sendable {
    /// Columns to the right (negative: to the left).
    package var right: Int
    /// Rows down (negative: up).
    package var down: Int

    /// In place.
    package static let zero = PixelShift(right: 0, down: 0)

    /// The slow orbit `display.pixel_shift` walks, a step a period: within a pixel of the place
    /// on either axis (2 pixels of travel), one axis a step, so each step moves the picture by one
    /// row (the display start line) or one column (the columns that hold content), never both.
    package static let orbit: [PixelShift] = [
        PixelShift(right: 0, down: 0), PixelShift(right: 1, down: 0), PixelShift(right: 1, down: 1),
        PixelShift(right: 0, down: 1), PixelShift(right: -1, down: 1), PixelShift(right: -1, down: 0),
        PixelShift(right: -1, down: -1), PixelShift(right: 0, down: -1),
    ]
}

/// Burn-in care (`display.pixel_shift`, `display.invert_every`): where the picture is on its
/// orbit, whether lit and dark are swapped, and when each changes next. Both off by default.
struct BurnInCare: Hashable, Sendable {
    /// The time between steps along the orbit; nil never moves.
    let shiftEvery: TimeSpan?
    /// The time between swaps of lit and dark; nil never swaps.
    let invertEvery: TimeSpan?
    /// The index of the picture's place in `PixelShift.orbit`.
    private(set) var step = 0
    /// When the picture moves on next.
    private(set) var shiftDue: Timestamp?
    /// When lit and dark swap next.
    private(set) var invertDue: Timestamp?
    /// Whether lit and dark are swapped against `display.invert`.
    private(set) var isInverted = false

    /// The care `display` asks for, its periods starting at `start`.
    init(_ display: DisplaySection, start: Timestamp) {
        shiftEvery = display.pixelShift
        invertEvery = display.invertEvery
        shiftDue = shiftEvery.map { start + $0 }
        invertDue = invertEvery.map { start + $0 }
    }

    /// Where the picture stands now.
    var shift: PixelShift { PixelShift.orbit[step] }

    /// One step along the orbit at `instant`; the next a whole period later, however late this one
    /// came (after the panel was off, a slide), so steps never come in a burst.
    mutating func moveOn(at instant: Timestamp) {
        step = (step + 1) % PixelShift.orbit.count
        shiftDue = shiftEvery.map { instant + $0 }
    }

    /// Lit and dark swap at `instant`; the next swap a period later.
    mutating func invert(at instant: Timestamp) {
        isInverted.toggle()
        invertDue = invertEvery.map { instant + $0 }
    }
}

extension DeviceEngine {
    /// When burn-in care changes the glass next. Nil while the panel is off or lost: a dark panel
    /// does not wear, and an idle pager sleeps through. The shift waits, without a deadline, while
    /// a slide, scroll or the notification overlay moves: frames come then anyway, and the first
    /// tick after the motion takes the step.
    func burnInDeadline(at instant: Timestamp) -> Timestamp? {
        guard burnIn.shiftEvery != nil || burnIn.invertEvery != nil, !health.isLost,
            idleScreen != .off
        else { return nil }
        let shift = presenter.isAnimating(at: instant) ? nil : burnIn.shiftDue
        return Timestamp.earliest(shift, burnIn.invertDue)
    }

    /// Takes the steps of burn-in care that are due: the picture a pixel on along its orbit (drawn
    /// with the next frame), lit and dark swapped (A6h/A7h, queued for it). Returns whether the
    /// glass changes, so a frame is due. A panel switched off takes them when it wakes.
    mutating func careForPanel() -> Bool {
        guard !health.isLost, idleScreen != .off else { return false }
        var changed = false
        if let due = burnIn.shiftDue, due <= now, !presenter.isAnimating(at: now) {
            burnIn.moveOn(at: now)
            presenter.pixelShift = burnIn.shift
            changed = true
        }
        if let due = burnIn.invertDue, due <= now {
            burnIn.invert(at: now)
            presenter.display.setInverted(configuration.display.isInverted != burnIn.isInverted)
            changed = true
        }
        return changed
    }
}
