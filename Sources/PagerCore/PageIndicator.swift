import PagerGraphics

/// Which side of the screen the crown, and so the page indicator, is on.
public enum CrownSide: String, Hashable, Sendable, CaseIterable {
    /// The right edge, as on an Apple Watch worn on the left wrist.
    case right
    /// The left edge, for a crown mounted on the left.
    case left
}

/// How the column of page-indicator dots looks.
public struct PageIndicatorStyle: Hashable, Sendable {
    /// Diameter of a full-size dot, in pixels.
    public var dotDiameter: Int
    /// Empty pixels between two full-size dots.
    public var dotSpacing: Int
    /// The most dots shown at once; nil shows as many as fit.
    public var maximumVisibleDots: Int?
    /// Hides the indicator when there is only one page (UIKit's `hidesForSinglePage`).
    public var hidesForSinglePage: Bool
    /// The side the column sits on.
    public var crownSide: CrownSide

    /// Creates a style; the defaults read well on a 0.96-inch 128x64 panel.
    public init(
        dotDiameter: Int = 5, dotSpacing: Int = 3, maximumVisibleDots: Int? = nil,
        hidesForSinglePage: Bool = false, crownSide: CrownSide = .right
    ) {
        self.dotDiameter = max(1, dotDiameter)
        self.dotSpacing = max(1, dotSpacing)
        self.maximumVisibleDots = maximumVisibleDots.map { max(1, $0) }
        self.hidesForSinglePage = hidesForSinglePage
        self.crownSide = crownSide
    }

    /// Width of the column the indicator takes beside the content: the dot and a pixel either side.
    public var columnWidth: Int { dotDiameter + 2 }

    /// Distance between the centres of two neighbouring dots: always the same, so dots stay equidistant.
    public var pitch: Int { dotDiameter + dotSpacing }
}

/// One dot of the page indicator, as laid out for drawing.
public struct IndicatorDot: Hashable, Sendable {
    /// The page the dot stands for.
    public var page: Int
    /// The centre of the dot.
    public var center: Point
    /// Its diameter: smaller at the ends of a window when more pages lie beyond.
    public var diameter: Int
    /// Whether this is the current page (drawn solid; the others are hollow).
    public var isCurrent: Bool
}

/// Where the dots of the page indicator go.
///
/// Dots are equidistant and centred along the column. When there are more pages than
/// fit, a window of dots that keeps the current page inside (and away from the window's
/// ends where it can) is shown, and the end dots shrink to say that more pages lie beyond,
/// as UIPageControl does on iOS 14 and later.
public enum PageIndicatorLayout {
    /// How many dots fit along `length` pixels.
    public static func capacity(length: Int, style: PageIndicatorStyle) -> Int {
        guard length >= style.dotDiameter else { return 0 }
        let fit = (length - style.dotDiameter) / style.pitch + 1
        return min(fit, style.maximumVisibleDots ?? fit)
    }

    /// The dots for `numberOfPages` with `currentPage` marked, inside `column` (vertical).
    public static func dots(
        numberOfPages: Int, currentPage: Int, column: Rect, style: PageIndicatorStyle
    ) -> [IndicatorDot] {
        guard numberOfPages > 0, !(style.hidesForSinglePage && numberOfPages == 1) else { return [] }
        let visible = min(numberOfPages, capacity(length: column.height, style: style))
        guard visible > 0 else { return [] }
        let current = min(max(currentPage, 0), numberOfPages - 1)
        let first = windowStart(numberOfPages: numberOfPages, visible: visible, currentPage: current)

        let span = (visible - 1) * style.pitch
        let top = column.y + (column.height - span - 1) / 2
        let centerX = column.x + column.width / 2
        let shrunk = max(1, style.dotDiameter - 2)
        var dots: [IndicatorDot] = []
        dots.reserveCapacity(visible)
        for slot in 0..<visible {
            let page = first + slot
            let moreBefore = slot == 0 && first > 0
            let moreAfter = slot == visible - 1 && first + visible < numberOfPages
            dots.append(
                IndicatorDot(
                    page: page,
                    center: Point(x: centerX, y: top + slot * style.pitch),
                    diameter: (moreBefore || moreAfter) && page != current ? shrunk : style.dotDiameter,
                    isCurrent: page == current))
        }
        return dots
    }

    /// The first page of the window: the current page sits in the middle where the ends allow.
    static func windowStart(numberOfPages: Int, visible: Int, currentPage: Int) -> Int {
        guard numberOfPages > visible else { return 0 }
        let centred = currentPage - (visible - 1) / 2
        return min(max(centred, 0), numberOfPages - visible)
    }
}

extension Bitmap {
    /// Draws the page-indicator dots: the current one solid, the others hollow.
    public mutating func drawIndicatorDots(_ dots: [IndicatorDot]) {
        for dot in dots {
            let radius = (dot.diameter - 1) / 2
            if dot.isCurrent {
                fillCircle(center: dot.center, radius: radius)
            } else {
                strokeCircle(center: dot.center, radius: radius)
            }
        }
    }
}
