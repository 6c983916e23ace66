import PagerGraphics
import TestSupport
import Testing

/// One drawing call with its parameters, so properties can replay it on different canvases.
enum Shape: CustomStringConvertible {
    case line(Point, Point)
    case fillRect(Rect)
    case strokeRect(Rect)
    case fillRounded(Rect, Int)
    case strokeRounded(Rect, Int)
    case fillCircle(Point, Int)
    case strokeCircle(Point, Int)

    func draw(on bitmap: inout Bitmap, offset: Int = 0, ink: Ink = .on) {
        func moved(_ p: Point) -> Point { Point(x: p.x + offset, y: p.y + offset) }
        func moved(_ r: Rect) -> Rect { r.offsetBy(dx: offset, dy: offset) }
        switch self {
        case .line(let a, let b): bitmap.drawLine(from: moved(a), to: moved(b), ink: ink)
        case .fillRect(let r): bitmap.fillRect(moved(r), ink: ink)
        case .strokeRect(let r): bitmap.strokeRect(moved(r), ink: ink)
        case .fillRounded(let r, let radius): bitmap.fillRoundedRect(moved(r), radius: radius, ink: ink)
        case .strokeRounded(let r, let radius): bitmap.strokeRoundedRect(moved(r), radius: radius, ink: ink)
        case .fillCircle(let c, let radius): bitmap.fillCircle(center: moved(c), radius: radius, ink: ink)
        case .strokeCircle(let c, let radius): bitmap.strokeCircle(center: moved(c), radius: radius, ink: ink)
        }
    }

    var description: String {
        switch self {
        case .line(let a, let b): return "line \(a.x),\(a.y) -> \(b.x),\(b.y)"
        case .fillRect(let r): return "fillRect \(r.x),\(r.y) \(r.width)x\(r.height)"
        case .strokeRect(let r): return "strokeRect \(r.x),\(r.y) \(r.width)x\(r.height)"
        case .fillRounded(let r, let radius): return "fillRounded \(r.x),\(r.y) \(r.width)x\(r.height) r\(radius)"
        case .strokeRounded(let r, let radius): return "strokeRounded \(r.x),\(r.y) \(r.width)x\(r.height) r\(radius)"
        case .fillCircle(let c, let radius): return "fillCircle \(c.x),\(c.y) r\(radius)"
        case .strokeCircle(let c, let radius): return "strokeCircle \(c.x),\(c.y) r\(radius)"
        }
    }

    /// A shape near (and often across the edges of) a `size` x `size` canvas.
    static func random(in size: Int, using generator: inout SeededGenerator) -> Shape {
        func coordinate() -> Int { Int.random(in: -8...(size + 8), using: &generator) }
        func point() -> Point { Point(x: coordinate(), y: coordinate()) }
        func rect() -> Rect {
            Rect(
                x: coordinate(), y: coordinate(),
                width: Int.random(in: -2...(size / 2 + 8), using: &generator),
                height: Int.random(in: -2...(size / 2 + 8), using: &generator))
        }
        func radius() -> Int { Int.random(in: -1...14, using: &generator) }
        switch Int.random(in: 0..<7, using: &generator) {
        case 0: return .line(point(), point())
        case 1: return .fillRect(rect())
        case 2: return .strokeRect(rect())
        case 3: return .fillRounded(rect(), radius())
        case 4: return .strokeRounded(rect(), radius())
        case 5: return .fillCircle(point(), radius())
        default: return .strokeCircle(point(), radius())
        }
    }
}

@Suite("Primitives")
struct PrimitivesTests {
    @Test("a sheet of every primitive matches its golden", .tags(.golden))
    func primitiveSheet() {
        var sheet = Bitmap(width: 128, height: 64)
        // Lines in all eight octants from one centre, plus the axes and diagonals.
        let centre = Point(x: 16, y: 16)
        for end in [
            (30, 20), (30, 28), (20, 30), (12, 30), (2, 27), (2, 19), (8, 2), (24, 2),
            (30, 16), (16, 30), (2, 16), (16, 2), (30, 30), (2, 2),
        ] {
            sheet.drawLine(from: centre, to: Point(x: end.0, y: end.1))
        }
        sheet.strokeRect(Rect(x: 34, y: 2, width: 12, height: 8))
        sheet.fillRect(Rect(x: 48, y: 2, width: 12, height: 8))
        sheet.strokeRect(Rect(x: 62, y: 2, width: 1, height: 8))
        sheet.strokeRect(Rect(x: 65, y: 2, width: 5, height: 1))
        sheet.strokeRect(Rect(x: 65, y: 5, width: 5, height: 2))
        for (index, radius) in [0, 1, 2, 3, 5, 8].enumerated() {
            let rect = Rect(x: 34 + index * 15, y: 13, width: 14, height: 12)
            sheet.strokeRoundedRect(rect, radius: radius)
            sheet.fillRoundedRect(Rect(x: 34 + index * 15, y: 27, width: 14, height: 9), radius: radius)
        }
        for (index, radius) in [0, 1, 2, 3, 4, 6].enumerated() {
            sheet.strokeCircle(center: Point(x: 7 + index * 17, y: 48), radius: radius)
            sheet.fillCircle(center: Point(x: 7 + index * 17, y: 58), radius: min(radius, 4))
        }
        // Blits with each ink over a half-lit background.
        let stamp = Bitmap(rows: ["#..#", ".##.", ".##.", "#..#"])
        sheet.fillRect(Rect(x: 104, y: 40, width: 24, height: 4))
        for (index, ink) in [Ink.on, .off, .inverted].enumerated() {
            sheet.blit(stamp, at: Point(x: 104 + index * 8, y: 38), ink: ink)
        }
        sheet.blit(stamp, at: Point(x: 104, y: 46), opaque: true)
        // Clipped at every edge.
        sheet.strokeCircle(center: Point(x: 127, y: 20), radius: 6)
        sheet.fillRoundedRect(Rect(x: 120, y: 58, width: 16, height: 10), radius: 3)
        sheet.drawLine(from: Point(x: -5, y: 40), to: Point(x: 5, y: 30))
        sheet.strokeRect(Rect(x: 100, y: -3, width: 10, height: 6))
        expectGolden(sheet, named: "primitives")
    }

    @Test("drawing across the edges equals drawing on a bigger canvas and cropping")
    func clippingAtEdges() {
        var generator = SeededGenerator(seed: 1)
        let margin = 32
        for _ in 0..<600 {
            let shape = Shape.random(in: 24, using: &generator)
            let height = Int.random(in: 1...24, using: &generator)
            var small = Bitmap(width: 24, height: height)
            shape.draw(on: &small)
            var big = Bitmap(width: 24 + 2 * margin, height: height + 2 * margin)
            shape.draw(on: &big, offset: margin)
            #expect(small == big.cropped(to: Rect(x: margin, y: margin, width: 24, height: height)), "\(shape)")
        }
    }

    @Test("a clip rectangle keeps pixels outside it and draws the rest as without it")
    func clipRectangle() {
        var generator = SeededGenerator(seed: 2)
        for _ in 0..<400 {
            let shape = Shape.random(in: 32, using: &generator)
            let background = randomBitmap(width: 32, height: 21, using: &generator)
            let clip = Rect(
                x: Int.random(in: -4...30, using: &generator), y: Int.random(in: -4...20, using: &generator),
                width: Int.random(in: 0...20, using: &generator), height: Int.random(in: 0...20, using: &generator))
            var clipped = background
            clipped.clip = clip
            shape.draw(on: &clipped, ink: .inverted)
            var unclipped = background
            shape.draw(on: &unclipped, ink: .inverted)
            var expected = background
            for y in 0..<21 {
                for x in 0..<32 where clip.contains(Point(x: x, y: y)) {
                    expected[x, y] = unclipped[x, y]
                }
            }
            #expect(clipped == expected, "\(shape) clipped to \(clip)")
        }
    }

    @Test("inverted ink flips each pixel of the shape exactly once, so twice restores")
    func invertedTwice() {
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<500 {
            let shape = Shape.random(in: 40, using: &generator)
            let background = randomBitmap(width: 40, height: 27, using: &generator)
            var mask = Bitmap(width: 40, height: 27)
            shape.draw(on: &mask)
            var once = background
            shape.draw(on: &once, ink: .inverted)
            #expect(once == exclusiveOr(background, mask), "\(shape)")
            shape.draw(on: &once, ink: .inverted)
            #expect(once == background, "\(shape)")
            var off = background
            shape.draw(on: &off, ink: .off)
            var darkened = background
            for y in 0..<27 {
                for x in 0..<40 where mask[x, y] { darkened[x, y] = false }
            }
            #expect(off == darkened, "\(shape) with .off")
        }
    }

    @Test("lines include both ends, step one pixel at a time and light max(dx, dy) + 1 pixels")
    func lineShape() {
        var generator = SeededGenerator(seed: 4)
        for _ in 0..<500 {
            let a = Point(x: Int.random(in: 0..<48, using: &generator), y: Int.random(in: 0..<48, using: &generator))
            let b = Point(x: Int.random(in: 0..<48, using: &generator), y: Int.random(in: 0..<48, using: &generator))
            var bitmap = Bitmap(width: 48, height: 48)
            bitmap.drawLine(from: a, to: b)
            #expect(bitmap[a.x, a.y] && bitmap[b.x, b.y])
            #expect(bitmap.litPixelCount == max(abs(b.x - a.x), abs(b.y - a.y)) + 1, "\(a) -> \(b)")
            let dx = b.x - a.x
            let dy = b.y - a.y
            let length = max(abs(dx), abs(dy))
            for y in 0..<48 {
                for x in 0..<48 where bitmap[x, y] {
                    let cross = abs((x - a.x) * dy - (y - a.y) * dx)
                    // Bresenham stays within half a pixel along the minor axis: |cross| / length <= 1/2.
                    #expect(2 * cross <= length, "\(a) -> \(b) strays at \(x),\(y)")
                }
            }
        }
    }

    @Test("outlines lie inside their filled shape and cover its whole border")
    func outlinesBorderTheirFill() {
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<300 {
            let radius = Int.random(in: 0...12, using: &generator)
            let rect = Rect(
                x: 2, y: 2, width: Int.random(in: 1...30, using: &generator),
                height: Int.random(in: 1...30, using: &generator))
            var pairs: [(Bitmap, Bitmap, String)] = []
            var fill = Bitmap(width: 36, height: 36)
            var stroke = Bitmap(width: 36, height: 36)
            fill.fillRoundedRect(rect, radius: radius)
            stroke.strokeRoundedRect(rect, radius: radius)
            pairs.append((fill, stroke, "rounded \(rect.width)x\(rect.height) r\(radius)"))
            var disc = Bitmap(width: 36, height: 36)
            var ring = Bitmap(width: 36, height: 36)
            disc.fillCircle(center: Point(x: 17, y: 17), radius: min(radius, 15))
            ring.strokeCircle(center: Point(x: 17, y: 17), radius: min(radius, 15))
            pairs.append((disc, ring, "circle r\(min(radius, 15))"))
            for (filled, outline, name) in pairs {
                for y in 0..<36 {
                    for x in 0..<36 {
                        if outline[x, y] {
                            #expect(filled[x, y], "\(name): outline outside fill at \(x),\(y)")
                            // An outline pixel touches the outside, at least diagonally: no chords, no stripes.
                            let touchesOutside = (-1...1).contains { dy in
                                (-1...1).contains { dx in !filled[x + dx, y + dy] }
                            }
                            #expect(touchesOutside, "\(name): outline pixel \(x),\(y) is inside the shape")
                        }
                        let onBorder =
                            filled[x, y]
                            && (!filled[x - 1, y] || !filled[x + 1, y] || !filled[x, y - 1] || !filled[x, y + 1])
                        if onBorder { #expect(outline[x, y], "\(name): border pixel \(x),\(y) missing") }
                    }
                }
            }
        }
    }

    @Test("fillRect's byte-wide path equals plotting each pixel")
    func fillRectMatchesPlot() {
        var generator = SeededGenerator(seed: 6)
        for _ in 0..<300 {
            let height = Int.random(in: 1...40, using: &generator)
            let background = randomBitmap(width: 20, height: height, using: &generator)
            let rect = Rect(
                x: Int.random(in: -3...20, using: &generator), y: Int.random(in: -3...40, using: &generator),
                width: Int.random(in: 0...24, using: &generator), height: Int.random(in: 0...44, using: &generator))
            for ink in [Ink.on, .off, .inverted] {
                var fast = background
                fast.fillRect(rect, ink: ink)
                var slow = background
                for y in rect.y..<max(rect.y, rect.maxY) {
                    for x in rect.x..<max(rect.x, rect.maxX) { slow.plot(x: x, y: y, ink: ink) }
                }
                #expect(fast == slow)
            }
        }
    }
}
