import PagerGraphics

/// One indicator of the page control, as laid out for drawing.
public struct IndicatorDot: Hashable, Sendable {
    /// The page the indicator stands for.
    public var page: Int
    /// The centre of the indicator's first full-size dot position (its top, or left, end when stretched).
    public var center: Point
    /// Its diameter: smaller at the ends of a window when more pages lie beyond.
    public var diameter: Int
    /// Extra length along the strip: a tall current page stretches its dot into a capsule.
    public var stretch: Int
    /// True when the strip is a column (vertical pages).
    public var isVertical: Bool
    /// Whether this is the current page (drawn solid; the others are hollow).
    public var isCurrent: Bool

    /// True for the shrunk dots at the ends of a window that say more pages lie beyond.
    public var isShrunk: Bool

    /// The pixels the indicator covers.
    public var bounds: Rect {
        let radius = (diameter - 1) / 2
        let origin = Point(x: center.x - radius, y: center.y - radius)
        return isVertical
            ? Rect(x: origin.x, y: origin.y, width: diameter, height: diameter + stretch)
            : Rect(x: origin.x, y: origin.y, width: diameter + stretch, height: diameter)
    }
}

/// Where the indicators of the page control go.
///
/// Indicators are equidistant and centred along the strip. When there are more pages than
/// fit, a window that keeps the current page inside (in the middle where the ends allow)
/// is shown, and the end dots shrink to say that more pages lie beyond, as UIPageControl
/// does since iOS 14. A tall current page stretches its dot by one pitch into a capsule;
/// the dots after it move along by the same amount, so the spacing stays even.
public enum PageIndicatorLayout {
    /// How many indicators fit along `length` pixels, with `stretch` extra pixels for a capsule.
    public static func capacity(length: Int, style: PageIndicatorStyle, stretch: Int = 0) -> Int {
        guard length >= style.dotDiameter + stretch else { return 0 }
        let fit = (length - style.dotDiameter - stretch) / style.pitch + 1
        let limit = style.maximumVisibleDots ?? PageIndicatorStyle.defaultMaximumVisibleDots(forLength: length) ?? fit
        return min(fit, limit)
    }

    /// The indicators for `numberOfPages` with `currentPage` marked, inside `strip`.
    public static func dots(
        numberOfPages: Int, currentPage: Int, in strip: Rect, style: PageIndicatorStyle, currentStretch: Int = 0
    ) -> [IndicatorDot] {
        var dots: [IndicatorDot] = []
        self.dots(
            numberOfPages: numberOfPages, currentPage: currentPage, in: strip, style: style,
            currentStretch: currentStretch, into: &dots)
        return dots
    }

    /// The dots `dots(numberOfPages:currentPage:in:style:currentStretch:)` lays out, into `dots`,
    /// whose storage is reused: a frame loop lays them out without allocating.
    public static func dots(
        numberOfPages: Int, currentPage: Int, in strip: Rect, style: PageIndicatorStyle, currentStretch: Int = 0,
        into dots: inout [IndicatorDot]
    ) {
        dots.removeAll(keepingCapacity: true)
        guard numberOfPages > 0, !(style.hidesForSinglePage && numberOfPages == 1) else { return }
        let vertical = style.crownSide.isVertical
        let length = vertical ? strip.height : strip.width
        var stretch = max(0, currentStretch)
        if capacity(length: length, style: style, stretch: stretch) == 0 { stretch = 0 }
        let visible = min(numberOfPages, capacity(length: length, style: style, stretch: stretch))
        guard visible > 0 else { return }
        let current = min(max(currentPage, 0), numberOfPages - 1)
        let first = windowStart(numberOfPages: numberOfPages, visible: visible, currentPage: current)

        let span = (visible - 1) * style.pitch + stretch
        let start = (vertical ? strip.y : strip.x) + (length - span - 1) / 2
        let across = vertical ? strip.x + strip.width / 2 : strip.y + strip.height / 2
        let shrunk = max(1, style.dotDiameter - 2)
        dots.reserveCapacity(visible)
        var along = start
        for slot in 0..<visible {
            let page = first + slot
            let moreBefore = slot == 0 && first > 0
            let moreAfter = slot == visible - 1 && first + visible < numberOfPages
            let isCurrent = page == current
            dots.append(
                IndicatorDot(
                    page: page, center: vertical ? Point(x: across, y: along) : Point(x: along, y: across),
                    diameter: (moreBefore || moreAfter) && !isCurrent ? shrunk : style.dotDiameter,
                    stretch: isCurrent ? stretch : 0, isVertical: vertical, isCurrent: isCurrent,
                    isShrunk: (moreBefore || moreAfter) && !isCurrent))
            along += style.pitch + (isCurrent ? stretch : 0)
        }
    }

    /// The first page of the window: the current page sits in the middle where the ends allow.
    static func windowStart(numberOfPages: Int, visible: Int, currentPage: Int) -> Int {
        guard numberOfPages > visible else { return 0 }
        let centred = currentPage - (visible - 1) / 2
        return min(max(centred, 0), numberOfPages - visible)
    }
}
