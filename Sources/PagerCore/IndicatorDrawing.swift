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
    /// On the solid plate the indicators are cut out of it (dark on lit): a 1-bit panel has no
    /// translucency, and inverting keeps the contrast the plate is there to give.
    public mutating func drawPageIndicator(
        _ dots: [IndicatorDot], images: PageIndicatorImages = PageIndicatorImages(),
        decoration: IndicatorDecoration = IndicatorDecoration(), strip: Rect
    ) {
        guard let first = dots.first, let last = dots.last else { return }
        let plateRect = Self.plateRect(first: first.bounds, last: last.bounds, strip: strip, vertical: first.isVertical)
        let radius = min(3, (min(plateRect.width, plateRect.height) - 1) / 2)
        switch decoration.plate {
        case .hidden: break
        case .fading: strokeRoundedRect(plateRect, radius: radius)
        case .shown: fillRoundedRect(plateRect, radius: radius)
        }
        let ink: Ink = decoration.plate == .shown ? .off : .on
        for dot in dots {
            if dot.isShrunk {
                strokeCircle(center: dot.center, radius: (dot.diameter - 1) / 2, ink: ink)
            } else if dot.isCurrent, dot.stretch > 0 {
                drawCapsule(dot, fraction: decoration.capsuleFraction ?? 0, ink: ink)
            } else if dot.isCurrent, let look = decoration.timer {
                drawTimerDot(dot, look: look, image: images.currentPageIndicatorImage(forPage: dot.page), ink: ink)
            } else if let image = dot.isCurrent
                ? images.currentPageIndicatorImage(forPage: dot.page) : images.indicatorImage(forPage: dot.page)
            {
                let glyph = dot.isCurrent ? image.bitmap : image.outline
                blit(
                    glyph, at: Point(x: dot.center.x - (glyph.width - 1) / 2, y: dot.center.y - (glyph.height - 1) / 2),
                    ink: ink)
            } else if dot.isCurrent {
                fillCircle(center: dot.center, radius: (dot.diameter - 1) / 2, ink: ink)
            } else {
                strokeCircle(center: dot.center, radius: (dot.diameter - 1) / 2, ink: ink)
            }
        }
    }

    /// A stretched current dot: a hollow capsule with a solid dot inside at the position in the page.
    private mutating func drawCapsule(_ dot: IndicatorDot, fraction: Double, ink: Ink) {
        let bounds = dot.bounds
        let radius = (dot.diameter - 1) / 2
        strokeRoundedRect(bounds, radius: radius, ink: ink)
        let travel = Int((min(max(fraction, 0), 1) * Double(dot.stretch)).rounded())
        let knob =
            dot.isVertical
            ? Rect(x: bounds.x, y: bounds.y + travel, width: dot.diameter, height: dot.diameter)
            : Rect(x: bounds.x + travel, y: bounds.y, width: dot.diameter, height: dot.diameter)
        fillRoundedRect(knob, radius: radius, ink: ink)
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
