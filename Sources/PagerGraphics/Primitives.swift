extension Bitmap {
    /// Fills `rect` (clipped) with `ink`, whole bytes under a mask per page, 8 columns at a time.
    public mutating func fillRect(_ rect: Rect, ink: Ink = .on) {
        withCanvas { $0.fill(rect, mode: BlitMode(ink: ink, opaque: false)) }
    }

    /// Draws a horizontal run of `length` pixels from `(x, y)`.
    public mutating func drawHorizontalLine(x: Int, y: Int, length: Int, ink: Ink = .on) {
        fillRect(Rect(x: x, y: y, width: length, height: 1), ink: ink)
    }

    /// Draws a vertical run of `length` pixels from `(x, y)`.
    public mutating func drawVerticalLine(x: Int, y: Int, length: Int, ink: Ink = .on) {
        fillRect(Rect(x: x, y: y, width: 1, height: length), ink: ink)
    }

    /// Draws a one-pixel line including both ends (Bresenham), each pixel once so `.inverted` is exact.
    public mutating func drawLine(from start: Point, to end: Point, ink: Ink = .on) {
        let dx = abs(end.x - start.x)
        let dy = -abs(end.y - start.y)
        let stepX = start.x < end.x ? 1 : -1
        let stepY = start.y < end.y ? 1 : -1
        var error = dx + dy
        var x = start.x
        var y = start.y
        while true {
            plot(x: x, y: y, ink: ink)
            if x == end.x && y == end.y { return }
            let doubled = 2 * error
            if doubled >= dy {
                error += dy
                x += stepX
            }
            if doubled <= dx {
                error += dx
                y += stepY
            }
        }
    }

    /// Draws the one-pixel outline of `rect`.
    public mutating func strokeRect(_ rect: Rect, ink: Ink = .on) {
        withCanvas { $0.stroke(rect, mode: BlitMode(ink: ink, opaque: false)) }
    }

    /// Fills `rect` with corners rounded to `radius` (clamped to half the shorter side).
    public mutating func fillRoundedRect(_ rect: Rect, radius: Int, ink: Ink = .on) {
        guard !rect.isEmpty else { return }
        let r = max(0, min(radius, min(rect.width, rect.height) / 2))
        let mode = BlitMode(ink: ink, opaque: false)
        withCanvas { canvas in
            for row in 0..<rect.height {
                let inset = Self.cornerInset(row: row, height: rect.height, radius: r)
                canvas.fill(
                    Rect(x: rect.x + inset, y: rect.y + row, width: rect.width - 2 * inset, height: 1), mode: mode)
            }
        }
    }

    /// Draws the one-pixel outline of `rect` with corners rounded to `radius`.
    public mutating func strokeRoundedRect(_ rect: Rect, radius: Int, ink: Ink = .on) {
        guard !rect.isEmpty else { return }
        let r = max(0, min(radius, min(rect.width, rect.height) / 2))
        strokeSpans(rows: rect.y..<rect.maxY, ink: ink) { y in
            let inset = Self.cornerInset(row: y - rect.y, height: rect.height, radius: r)
            return (rect.x + inset, rect.maxX - 1 - inset)
        }
    }

    /// Fills the circle of `radius` around `center`.
    public mutating func fillCircle(center: Point, radius: Int, ink: Ink = .on) {
        guard radius >= 0 else { return }
        let mode = BlitMode(ink: ink, opaque: false)
        withCanvas { canvas in
            for dy in -radius...radius {
                let half = Self.circleHalfWidth(dy: dy, radius: radius)
                canvas.fill(Rect(x: center.x - half, y: center.y + dy, width: 2 * half + 1, height: 1), mode: mode)
            }
        }
    }

    /// Draws the one-pixel outline of the circle of `radius` around `center`.
    public mutating func strokeCircle(center: Point, radius: Int, ink: Ink = .on) {
        guard radius >= 0 else { return }
        strokeSpans(rows: (center.y - radius)..<(center.y + radius + 1), ink: ink) { y in
            let half = Self.circleHalfWidth(dy: y - center.y, radius: radius)
            return (center.x - half, center.x + half)
        }
    }

    /// Draws the outline of a shape given as one horizontal span per row: the pixels of the
    /// shape with a left, right, upper or lower neighbour outside it. Each pixel is drawn once,
    /// so `.inverted` outlines are exact. One access to the bytes for the whole shape.
    mutating func strokeSpans(rows: Range<Int>, ink: Ink = .on, span: (Int) -> (Int, Int)) {
        func spanOrEmpty(_ y: Int) -> (Int, Int) {
            rows.contains(y) ? span(y) : (Int.max, Int.min)
        }
        let mode = BlitMode(ink: ink, opaque: false)
        withCanvas { canvas in
            for y in rows {
                let (low, high) = span(y)
                guard low <= high else { continue }
                let (lowAbove, highAbove) = spanOrEmpty(y - 1)
                let (lowBelow, highBelow) = spanOrEmpty(y + 1)
                let innerLow = max(low + 1, lowAbove, lowBelow)
                let innerHigh = min(high - 1, highAbove, highBelow)
                if innerLow > innerHigh {
                    canvas.fill(Rect(x: low, y: y, width: high - low + 1, height: 1), mode: mode)
                } else {
                    canvas.fill(Rect(x: low, y: y, width: innerLow - low, height: 1), mode: mode)
                    canvas.fill(Rect(x: innerHigh + 1, y: y, width: high - innerHigh, height: 1), mode: mode)
                }
            }
        }
    }

    /// Copies the lit pixels of `source` with its top-left at `origin`, applying `ink` to each.
    /// With `opaque`, the dark pixels of `source` darken the destination too.
    public mutating func blit(_ source: Bitmap, at origin: Point, ink: Ink = .on, opaque: Bool = false) {
        source.bytes.withUnsafeBufferPointer { sourceBytes in
            guard let base = sourceBytes.baseAddress else { return }
            withCanvas {
                $0.combine(
                    PagedSource(base: base, width: source.width, height: source.height), at: origin,
                    mode: BlitMode(ink: ink, opaque: opaque))
            }
        }
    }

    /// A copy of the pixels inside `rect`; pixels outside this bitmap read dark.
    public func cropped(to rect: Rect) -> Bitmap {
        var result = Bitmap(width: rect.width, height: rect.height)
        result.blit(self, at: Point(x: -rect.x, y: -rect.y))
        return result
    }

    /// Half the width of the circle's row `dy` rows from its centre.
    static func circleHalfWidth(dy: Int, radius: Int) -> Int {
        // Largest h with h*h + dy*dy <= r*r + r: the midpoint-circle rounding, without floating point.
        let limit = radius * radius + radius - dy * dy
        guard limit >= 0 else { return -1 }
        var half = 0
        while (half + 1) * (half + 1) <= limit { half += 1 }
        return half
    }

    /// How far a rounded rectangle's row is pulled in from each side.
    static func cornerInset(row: Int, height: Int, radius: Int) -> Int {
        guard radius > 0 else { return 0 }
        let fromEdge = min(row, height - 1 - row)
        guard fromEdge < radius else { return 0 }
        let dy = radius - fromEdge
        return radius - circleHalfWidth(dy: dy, radius: radius)
    }
}
