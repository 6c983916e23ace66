import PagerGraphics

/// Why an indicator image cannot be used.
public enum IndicatorImageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The image is bigger than the indicator cell.
    case tooLarge(name: String, size: Size, limit: Size)
    /// The image has no lit pixel, so it would show nothing.
    case blank(name: String)
    /// No built-in image has this name.
    case unknownBuiltIn(String)

    /// A sentence for the operator, naming the image and the fix.
    public var description: String {
        switch self {
        case .tooLarge(let name, let size, let limit):
            return "indicator image \(name) is \(size.width)x\(size.height) pixels; it must be at most "
                + "\(limit.width)x\(limit.height) to fit the indicator cell (draw it smaller)"
        case .blank(let name):
            return "indicator image \(name) has no lit pixels; draw the glyph in 1s (PBM) or set bits (XBM)"
        case .unknownBuiltIn(let name):
            return "no built-in indicator image '\(name)': choose one of "
                + IndicatorImage.builtIns.map { $0.name }.joined(separator: ", ")
                + ", or give a .pbm, .xbm or .png file"
        }
    }
}

/// A small 1-bit glyph shown instead of the dot for some pages (UIKit's indicator images).
///
/// The guidelines ask for simple, clear shapes with no negative space, text or inner lines:
/// at 7x7 pixels a filled silhouette is all that reads. The image is drawn solid for the
/// current page and as its outline for the others, as the dots are, unless a current-page
/// variant is given.
public struct IndicatorImage: Hashable, Sendable {
    /// The name messages use: a built-in's name or the file it came from.
    public var name: String
    /// The glyph; lit pixels are drawn.
    public var bitmap: Bitmap

    /// An image called `name`.
    public init(name: String, bitmap: Bitmap) {
        self.name = name
        self.bitmap = bitmap
    }

    /// Checks that the image fits a cell of `limit` and is not blank.
    public func validated(fitting limit: Size) throws(IndicatorImageError) -> IndicatorImage {
        guard bitmap.width <= limit.width, bitmap.height <= limit.height else {
            throw .tooLarge(name: name, size: bitmap.size, limit: limit)
        }
        guard bitmap.litPixelCount > 0 else { throw .blank(name: name) }
        return self
    }

    /// The lit pixels that touch an unlit one or the edge: the hollow form for pages that are not current.
    public var outline: Bitmap {
        var result = Bitmap(width: bitmap.width, height: bitmap.height)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap[x, y] {
                let inside =
                    x > 0 && y > 0 && x < bitmap.width - 1 && y < bitmap.height - 1
                    && bitmap[x - 1, y] && bitmap[x + 1, y] && bitmap[x, y - 1] && bitmap[x, y + 1]
                if !inside { result.plot(x: x, y: y) }
            }
        }
        return result
    }

    /// The built-in image called `name` (`location`, `house`, `bookmark`, `star`).
    public static func builtIn(named name: String) throws(IndicatorImageError) -> IndicatorImage {
        guard let image = builtIns.first(where: { $0.name == name.lowercased() }) else { throw .unknownBuiltIn(name) }
        return image
    }

    /// Weather's `location.fill`: a navigation arrow pointing up and right.
    public static let location = IndicatorImage(
        name: "location",
        bitmap: Bitmap(rows: [
            ".....##", "...####", ".######", "######.", "...###.", "...##..", "...#...",
        ]))
    /// `house.fill`: a roof and a solid wall.
    public static let house = IndicatorImage(
        name: "house",
        bitmap: Bitmap(rows: [
            "...#...", "..###..", ".#####.", "#######", ".#####.", ".#####.", ".#####.",
        ]))
    /// `bookmark.fill`: a ribbon with a notch.
    public static let bookmark = IndicatorImage(
        name: "bookmark",
        bitmap: Bitmap(rows: [
            ".#####.", ".#####.", ".#####.", ".#####.", ".#####.", ".##.##.", ".#...#.",
        ]))
    /// `star.fill`: a five-pointed star.
    public static let star = IndicatorImage(
        name: "star",
        bitmap: Bitmap(rows: [
            "...#...", "...#...", "#######", ".#####.", "..###..", ".##.##.", ".#...#.",
        ]))

    /// Every built-in image.
    public static let builtIns: [IndicatorImage] = [location, house, bookmark, star]
}
