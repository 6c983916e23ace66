extension Bitmap {
    /// Fills `rect` (clipped) with `ink`, a byte at a time where whole columns of a page are covered.
    public mutating func fillRect(_ rect: Rect, ink: Ink = .on) {
        let area = rect.intersection(clip)
        guard !area.isEmpty else { return }
        var y = area.y
        while y < area.maxY {
            let page = y >> 3
            let firstBit = y & 7
            let lastBit = min(7, area.maxY - 1 - page * 8)
            let mask = UInt8(truncatingIfNeeded: (0xFF << firstBit) & (0xFF >> (7 - lastBit)))
            let row = page * width
            for x in area.x..<area.maxX {
                switch ink {
                case .on: bytes[row + x] |= mask
                case .off: bytes[row + x] &= ~mask
                case .inverted: bytes[row + x] ^= mask
                }
            }
            y = page * 8 + lastBit + 1
        }
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
            if doubled >= dy { error += dy; x += stepX }
            if doubled <= dx { error += dx; y += stepY }
        }
    }

    /// Draws the one-pixel outline of `rect`.
    public mutating func strokeRect(_ rect: Rect, ink: Ink = .on) {
        guard !rect.isEmpty else { return }
        drawHorizontalLine(x: rect.x, y: rect.y, length: rect.width, ink: ink)
        if rect.height > 1 {
            drawHorizontalLine(x: rect.x, y: rect.maxY - 1, length: rect.width, ink: ink)
        }
        if rect.height > 2 {
            drawVerticalLine(x: rect.x, y: rect.y + 1, length: rect.height - 2, ink: ink)
            if rect.width > 1 {
                drawVerticalLine(x: rect.maxX - 1, y: rect.y + 1, length: rect.height - 2, ink: ink)
            }
        }
    }

    /// Fills `rect` with corners rounded to `radius` (clamped to half the shorter side).
    public mutating func fillRoundedRect(_ rect: Rect, radius: Int, ink: Ink = .on) {
        guard !rect.isEmpty else { return }
        let r = max(0, min(radius, min(rect.width, rect.height) / 2))
        for row in 0..<rect.height {
            let inset = Self.cornerInset(row: row, height: rect.height, radius: r)
            drawHorizontalLine(x: rect.x + inset, y: rect.y + row, length: rect.width - 2 * inset, ink: ink)
        }
    }

    /// Draws the one-pixel outline of `rect` with corners rounded to `radius`.
    public mutating func strokeRoundedRect(_ rect: Rect, radius: Int, ink: Ink = .on) {
        guard !rect.isEmpty else { return }
        let r = max(0, min(radius, min(rect.width, rect.height) / 2))
        // A pixel of the outline is a pixel of the filled shape that has a neighbour outside it.
        for row in 0..<rect.height {
            let inset = Self.cornerInset(row: row, height: rect.height, radius: r)
            let above = row == 0 ? rect.width : Self.cornerInset(row: row - 1, height: rect.height, radius: r)
            let below = row == rect.height - 1 ? rect.width : Self.cornerInset(row: row + 1, height: rect.height, radius: r)
            let y = rect.y + row
            let left = rect.x + inset
            let right = rect.maxX - 1 - inset
            guard left <= right else { continue }
            if row == 0 || row == rect.height - 1 {
                drawHorizontalLine(x: left, y: y, length: right - left + 1, ink: ink)
                continue
            }
            // Spread the edge to meet the neighbouring rows so the curve has no gaps.
            let spread = max(0, max(above, below) - inset - 1)
            let span = min(spread + 1, right - left + 1)
            drawHorizontalLine(x: left, y: y, length: span, ink: ink)
            let rightStart = max(left + span, right - span + 1)
            if rightStart <= right {
                drawHorizontalLine(x: rightStart, y: y, length: right - rightStart + 1, ink: ink)
            }
        }
    }

    /// Fills the circle of `radius` around `center`.
    public mutating func fillCircle(center: Point, radius: Int, ink: Ink = .on) {
        guard radius >= 0 else { return }
        for dy in -radius...radius {
            let half = Self.circleHalfWidth(dy: dy, radius: radius)
            drawHorizontalLine(x: center.x - half, y: center.y + dy, length: 2 * half + 1, ink: ink)
        }
    }

    /// Draws the one-pixel outline of the circle of `radius` around `center`.
    public mutating func strokeCircle(center: Point, radius: Int, ink: Ink = .on) {
        guard radius >= 0 else { return }
        for dy in -radius...radius {
            let half = Self.circleHalfWidth(dy: dy, radius: radius)
            let neighbour = abs(dy) == radius ? -1 : Self.circleHalfWidth(dy: abs(dy) + 1, radius: radius)
            let y = center.y + dy
            // Lit from the neighbouring row's edge outwards, so steep parts stay connected;
            // where the circle's side is vertical that is just the edge pixel, never a chord.
            let inner = min(max(neighbour + 1, 0), half)
            if inner == 0 || abs(dy) == radius {
                drawHorizontalLine(x: center.x - half, y: y, length: 2 * half + 1, ink: ink)
            } else {
                drawHorizontalLine(x: center.x - half, y: y, length: half - inner + 1, ink: ink)
                drawHorizontalLine(x: center.x + inner, y: y, length: half - inner + 1, ink: ink)
            }
        }
    }

    /// Copies the lit pixels of `source` with its top-left at `origin`, applying `ink` to each.
    /// With `opaque`, the dark pixels of `source` darken the destination too.
    public mutating func blit(_ source: Bitmap, at origin: Point, ink: Ink = .on, opaque: Bool = false) {
        let target = Rect(origin: origin, size: source.size).intersection(clip)
        guard !target.isEmpty else { return }
        for y in target.y..<target.maxY {
            for x in target.x..<target.maxX {
                let lit = source[x - origin.x, y - origin.y]
                if lit {
                    plot(x: x, y: y, ink: ink)
                } else if opaque {
                    plot(x: x, y: y, ink: .off)
                }
            }
        }
    }

    /// A copy of the pixels inside `rect`; pixels outside this bitmap read dark.
    public func cropped(to rect: Rect) -> Bitmap {
        var result = Bitmap(width: rect.width, height: rect.height)
        for y in 0..<result.height {
            for x in 0..<result.width where self[rect.x + x, rect.y + y] {
                result[x, y] = true
            }
        }
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
