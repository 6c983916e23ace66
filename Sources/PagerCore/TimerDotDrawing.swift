import PagerGraphics

extension Bitmap {
    /// The current dot of a timed page (a dot or the page's image), drawn with `ink`.
    ///
    /// Running, it is hollow with its centre pixel lit (so even at 0% it differs from the other,
    /// hollow, dots) and fills from the bottom, one more row per step. Paused, it is solid with a
    /// dark one-pixel gap down the middle: a pause sign. Legible at 5 to 7 pixels.
    mutating func drawTimerDot(_ dot: IndicatorDot, look: TimerLook, image: IndicatorImage?, ink: Ink) {
        let radius = (dot.diameter - 1) / 2
        let size = image?.bitmap.size ?? Size(width: 2 * radius + 1, height: 2 * radius + 1)
        let origin = Point(x: dot.center.x - (size.width - 1) / 2, y: dot.center.y - (size.height - 1) / 2)
        let middle = Point(x: origin.x + (size.width - 1) / 2, y: origin.y + (size.height - 1) / 2)
        func drawSolid(into bitmap: inout Bitmap) {
            if let image {
                bitmap.blit(image.bitmap, at: origin, ink: ink)
            } else {
                bitmap.fillCircle(center: dot.center, radius: radius, ink: ink)
            }
        }
        switch look {
        case .paused:
            drawSolid(into: &self)
            // The gap: the middle column back to what lies under the dot (dark, or the lit plate).
            let gap: Ink = ink == .on ? .off : .on
            for row in 0..<size.height where image.map({ $0.bitmap[middle.x - origin.x, row] }) ?? true {
                plot(x: middle.x, y: origin.y + row, ink: gap)
            }
        case .running(let step, _):
            if let image {
                blit(image.outline, at: origin, ink: ink)
                if image.bitmap[middle.x - origin.x, middle.y - origin.y] { plot(x: middle.x, y: middle.y, ink: ink) }
            } else {
                strokeCircle(center: dot.center, radius: radius, ink: ink)
                plot(x: middle.x, y: middle.y, ink: ink)
            }
            // Filled from the bottom up to the step-th row the fill changes.
            guard step > 0 else { return }
            let top: Int?
            if let image {
                top = image.timerFillRow(step: step)
            } else {
                top = radius >= 2 ? max(1, 2 * radius - step) : nil
            }
            guard let top else { return }
            let saved = clip
            clip = Rect(x: origin.x, y: origin.y + top, width: size.width, height: size.height - top).intersection(
                saved)
            drawSolid(into: &self)
            clip = saved
        }
    }
}

extension Bitmap {
    /// The position bar of a timed page, drawn over the plain bar: the timer the current dot
    /// would show, in the track, as the dot shows it.
    ///
    /// Running, the track's inside fills from the bottom (a row along a horizontal track: from
    /// the left) by `step` of `steps` parts, with one lit pixel at that end from 0% on, as the
    /// dot's centre pixel; the thumb stays readable, cut dark where the filling covers it.
    /// Paused, the whole track is solid with a dark line down its middle (the dot's pause sign,
    /// drawn long) and the thumb cut dark across it. On the plate, where the track is cut out dark,
    /// the filling is drawn as off it (the inside is dark either way) and the pause sign inverted.
    mutating func drawTimerBar(_ bar: IndicatorPositionBar, look: TimerLook, onPlate: Bool) {
        let lit: Ink = onPlate ? .off : .on
        let dark: Ink = onPlate ? .on : .off
        let inside = bar.track.insetBy(1)
        guard inside.width > 0, inside.height > 0 else { return }
        let length = bar.isVertical ? inside.height : inside.width
        switch look {
        case .paused:
            let radius = (min(bar.track.width, bar.track.height) - 1) / 2
            fillRoundedRect(bar.track, radius: radius, ink: lit)
            if bar.isVertical {
                drawVerticalLine(x: inside.x + (inside.width - 1) / 2, y: inside.y, length: inside.height, ink: dark)
            } else {
                drawHorizontalLine(x: inside.x, y: inside.y + (inside.height - 1) / 2, length: inside.width, ink: dark)
            }
            fillRect(bar.thumb, ink: dark)
        case .running(let step, let steps):
            let filled = steps > 0 ? min(length, max(0, step) * length / steps) : 0
            let fill =
                bar.isVertical
                ? Rect(x: inside.x, y: inside.maxY - filled, width: inside.width, height: filled)
                : Rect(x: inside.x, y: inside.y, width: filled, height: inside.height)
            // The seed: the middle pixel of the end the filling starts from.
            let seed =
                bar.isVertical
                ? Point(x: inside.x + (inside.width - 1) / 2, y: inside.maxY - 1)
                : Point(x: inside.x, y: inside.y + (inside.height - 1) / 2)
            for y in inside.y..<inside.maxY {
                for x in inside.x..<inside.maxX {
                    let point = Point(x: x, y: y)
                    guard fill.contains(point) || point == seed else { continue }
                    // The track's inside is dark on and off the plate: the filling is lit on both.
                    plot(x: x, y: y, ink: bar.thumb.contains(point) ? .off : .on)
                }
            }
        }
    }
}

extension IndicatorImage {
    /// Whether filling row `y` changes the running look: it has a lit pixel off the outline, besides the centre.
    func isTimerFillRow(_ y: Int) -> Bool {
        let width = bitmap.width
        let height = bitmap.height
        guard y > 0, y < height - 1 else { return false }
        for x in 1..<max(1, width - 1) where x != (width - 1) / 2 || y != (height - 1) / 2 {
            if bitmap[x, y], bitmap[x - 1, y], bitmap[x + 1, y], bitmap[x, y - 1], bitmap[x, y + 1] { return true }
        }
        return false
    }

    /// The row (from the top) of the `step`-th row counted from the bottom whose filling changes the look.
    func timerFillRow(step: Int) -> Int? {
        var count = 0
        for y in stride(from: bitmap.height - 1, through: 0, by: -1) where isTimerFillRow(y) {
            count += 1
            if count == step { return y }
        }
        return nil
    }

    /// How many rows' filling changes the running look.
    var timerFillRows: Int {
        (0..<bitmap.height).reduce(0) { $0 + (isTimerFillRow($1) ? 1 : 0) }
    }
}

extension PageIndicatorStyle {
    /// Into how many steps the current dot of `page` divides a timed page's time: one per row
    /// whose filling changes it, so every step is a new look and no wake is wasted.
    public func timerSteps(forPage page: Int) -> Int {
        if let image = images.currentPageIndicatorImage(forPage: page) { return max(1, image.timerFillRows) }
        // A dot's rows inside its outline all change, except the centre row alone of a 3-pixel dot.
        let radius = (dotDiameter - 1) / 2
        return radius >= 2 ? 2 * radius - 1 : 1
    }
}
