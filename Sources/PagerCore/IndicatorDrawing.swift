import PagerGraphics

/// What the indicator shows besides which page is current.
public struct IndicatorDecoration: Hashable, Sendable {
    /// The plate behind the dots.
    public var plate: BackgroundPlate
    /// For a tall current page: how far down it the screen is (0 to 1), shown inside the capsule.
    public var capsuleFraction: Double?
    /// For a timed page: the timer's look on the current dot (filling, or paused).
    public var timer: TimerLook?

    /// A decoration; none by default.
    public init(plate: BackgroundPlate = .hidden, capsuleFraction: Double? = nil, timer: TimerLook? = nil) {
        self.plate = plate
        self.capsuleFraction = capsuleFraction
        self.timer = timer
    }
}

extension Bitmap {
    /// Draws the page indicator: the current page solid, the others hollow, on the plate when it shows.
    ///
    /// A 1-bit panel has no translucency, so on the solid plate the indicators are cut out of it
    /// in dark, and what is lit still reads as solid: the current dot is a dark ring around lit
    /// plate, the others dark discs. (Cutting the same shapes as off the plate, a dark disc for
    /// the current page and dark rings for the others, made every other dot look lit and the
    /// current one look like the only hollow one.)
    public mutating func drawPageIndicator(
        _ dots: [IndicatorDot], images: PageIndicatorImages = PageIndicatorImages(),
        decoration: IndicatorDecoration = IndicatorDecoration(), strip: Rect
    ) {
        guard let first = dots.first, let last = dots.last else { return }
        let plateRect = Self.plateRect(first: first.bounds, last: last.bounds, strip: strip, vertical: first.isVertical)
        drawPlate(decoration.plate, in: plateRect)
        let onPlate = decoration.plate == .shown
        for dot in dots {
            let radius = (dot.diameter - 1) / 2
            if dot.isShrunk {
                drawRing(center: dot.center, radius: radius, onPlate: onPlate)
            } else if dot.isCurrent, dot.stretch > 0 {
                drawCapsule(dot, fraction: decoration.capsuleFraction ?? 0, onPlate: onPlate)
            } else if dot.isCurrent, let look = decoration.timer {
                drawTimerDot(
                    dot, look: look, image: images.currentPageIndicatorImage(forPage: dot.page),
                    ink: onPlate ? .off : .on)
            } else if let image = dot.isCurrent
                ? images.currentPageIndicatorImage(forPage: dot.page) : images.indicatorImage(forPage: dot.page)
            {
                // On the plate the outline cut in dark leaves the solid shape lit, and the
                // solid shape cut in dark reads as empty.
                let solid = dot.isCurrent != onPlate
                let glyph = solid ? image.bitmap : image.outline
                blit(
                    glyph, at: Point(x: dot.center.x - (glyph.width - 1) / 2, y: dot.center.y - (glyph.height - 1) / 2),
                    ink: onPlate ? .off : .on)
            } else if dot.isCurrent {
                if onPlate {
                    strokeCircle(center: dot.center, radius: radius, ink: .off)
                } else {
                    fillCircle(center: dot.center, radius: radius)
                }
            } else {
                drawRing(center: dot.center, radius: radius, onPlate: onPlate)
            }
        }
    }

    /// A hollow dot: a lit ring, or on the plate a dark disc.
    private mutating func drawRing(center: Point, radius: Int, onPlate: Bool) {
        if onPlate {
            fillCircle(center: center, radius: radius, ink: .off)
        } else {
            strokeCircle(center: center, radius: radius)
        }
    }

    /// Draws the position bar that stands for the dots where too few fit: the track hollow and
    /// the thumb solid, or on the plate the track cut out dark around the lit thumb.
    public mutating func drawPositionBar(
        _ bar: IndicatorPositionBar, decoration: IndicatorDecoration = IndicatorDecoration(), strip: Rect
    ) {
        let plateRect = Self.plateRect(first: bar.track, last: bar.track, strip: strip, vertical: bar.isVertical)
        drawPlate(decoration.plate, in: plateRect)
        let radius = (min(bar.track.width, bar.track.height) - 1) / 2
        if decoration.plate == .shown {
            fillRoundedRect(bar.track, radius: radius, ink: .off)
        } else {
            strokeRoundedRect(bar.track, radius: radius)
        }
        fillRect(bar.thumb)
        if let look = decoration.timer { drawTimerBar(bar, look: look, onPlate: decoration.plate == .shown) }
    }

    /// The plate behind the indicator: an outline while it fades, solid while it shows.
    private mutating func drawPlate(_ plate: BackgroundPlate, in rect: Rect) {
        let radius = min(3, (min(rect.width, rect.height) - 1) / 2)
        switch plate {
        case .hidden: break
        case .fading: strokeRoundedRect(rect, radius: radius)
        case .shown: fillRoundedRect(rect, radius: radius)
        }
    }

    /// A stretched current dot: a hollow capsule with a solid dot inside at the position in the
    /// page; on the plate a dark capsule with a lit dot a pixel smaller inside.
    private mutating func drawCapsule(_ dot: IndicatorDot, fraction: Double, onPlate: Bool) {
        let bounds = dot.bounds
        let radius = (dot.diameter - 1) / 2
        let travel = Int((min(max(fraction, 0), 1) * Double(dot.stretch)).rounded())
        let knob =
            dot.isVertical
            ? Rect(x: bounds.x, y: bounds.y + travel, width: dot.diameter, height: dot.diameter)
            : Rect(x: bounds.x + travel, y: bounds.y, width: dot.diameter, height: dot.diameter)
        if onPlate {
            fillRoundedRect(bounds, radius: radius, ink: .off)
            fillRoundedRect(knob.insetBy(1), radius: max(0, radius - 1))
        } else {
            strokeRoundedRect(bounds, radius: radius)
            fillRoundedRect(knob, radius: radius)
        }
    }

    /// The plate: the strip's full thickness, two pixels beyond the end indicators, inside the strip.
    static func plateRect(first: Rect, last: Rect, strip: Rect, vertical: Bool) -> Rect {
        if vertical {
            let top = max(strip.y, first.y - 2)
            let bottom = min(strip.maxY, last.maxY + 2)
            return Rect(x: strip.x, y: top, width: strip.width, height: bottom - top)
        }
        let left = max(strip.x, first.x - 2)
        let right = min(strip.maxX, last.maxX + 2)
        return Rect(x: left, y: strip.y, width: right - left, height: strip.height)
    }
}
