/// A pixel position; x grows to the right, y grows downwards, as on the panel.
public struct Point: Hashable, Sendable {
    public var x: Int
    public var y: Int

    /// Creates a point.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    /// The origin, top-left.
    public static let zero = Point(x: 0, y: 0)
}

/// A size in pixels.
public struct Size: Hashable, Sendable {
    public var width: Int
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// An axis-aligned rectangle of pixels: `x..<x+width` by `y..<y+height`.
public struct Rect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    /// Creates a rectangle from its top-left corner and size.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Creates a rectangle from its top-left corner and size.
    public init(origin: Point, size: Size) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }

    /// One past the rightmost column.
    public var maxX: Int { x + width }
    /// One past the bottom row.
    public var maxY: Int { y + height }
    /// The top-left corner.
    public var origin: Point { Point(x: x, y: y) }
    /// The width and height.
    public var size: Size { Size(width: width, height: height) }
    /// True when the rectangle covers no pixel.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// True when the pixel at `point` lies inside.
    public func contains(_ point: Point) -> Bool {
        point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
    }

    /// The pixels both rectangles cover (empty when they do not meet).
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        return Rect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    /// The rectangle moved by `dx`, `dy`.
    public func offsetBy(dx: Int, dy: Int) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// The rectangle shrunk by `amount` on every side.
    public func insetBy(_ amount: Int) -> Rect {
        Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }
}

/// How a drawing operation changes the pixels it touches.
public enum Ink: Sendable, Hashable {
    /// Lights the pixel.
    case on
    /// Darkens the pixel.
    case off
    /// Flips the pixel, so drawing twice restores it.
    case inverted
}
