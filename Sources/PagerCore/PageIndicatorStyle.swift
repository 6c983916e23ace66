import PagerGraphics

/// Where the crown is, and so where the page indicator sits and which way pages move.
public enum CrownSide: String, Hashable, Sendable, CaseIterable {
    /// The right edge, as on an Apple Watch worn on the left wrist: a column, vertical pages.
    case right
    /// The left edge, for a crown mounted on the left: the column mirrored.
    case left
    /// No crown beside the pages: horizontal paging with the row of dots centred at the
    /// bottom, as the guidelines ask ("Center a page control at the bottom of the screen").
    case bottom

    /// True when pages stack vertically and the dots form a column.
    public var isVertical: Bool { self != .bottom }
}

/// UIKit's `UIPageControl.BackgroundStyle`: when the rounded-rectangle plate behind the dots shows.
public enum PageControlBackgroundStyle: String, Hashable, Sendable, CaseIterable {
    /// The plate shows only while people interact with the crown, and goes away shortly after.
    case automatic
    /// The plate always shows: for a pager that is the screen's main navigation.
    case prominent
    /// The plate never shows, and scrubbing is off: every turn is a discrete step, because
    /// "the minimal style doesn't provide visual feedback during scrubbing".
    case minimal
}

/// How the page indicator looks and where it sits.
public struct PageIndicatorStyle: Hashable, Sendable {
    /// Diameter of a full-size dot, in pixels.
    public var dotDiameter: Int
    /// Empty pixels between two full-size dots.
    public var dotSpacing: Int
    /// The most dots shown at once; nil uses the panel's default (`defaultMaximumVisibleDots`).
    public var maximumVisibleDots: Int?
    /// Hides the indicator when there is only one page (UIKit's `hidesForSinglePage`); off by default.
    public var hidesForSinglePage: Bool
    /// The side the crown, and so the indicator, is on.
    public var crownSide: CrownSide
    /// When the plate behind the dots shows.
    public var backgroundStyle: PageControlBackgroundStyle
    /// Custom indicator images; empty means the system dot everywhere.
    public var images: PageIndicatorImages

    /// Creates a style; the defaults read well on a 0.96-inch 128x64 panel.
    public init(
        dotDiameter: Int = 5, dotSpacing: Int = 3, maximumVisibleDots: Int? = nil,
        hidesForSinglePage: Bool = false, crownSide: CrownSide = .right,
        backgroundStyle: PageControlBackgroundStyle = .automatic, images: PageIndicatorImages = PageIndicatorImages()
    ) {
        self.dotDiameter = max(1, dotDiameter)
        self.dotSpacing = max(1, dotSpacing)
        self.maximumVisibleDots = maximumVisibleDots.map { max(1, $0) }
        self.hidesForSinglePage = hidesForSinglePage
        self.crownSide = crownSide
        self.backgroundStyle = backgroundStyle
        self.images = images
    }

    /// Thickness of the strip the indicator takes beside the content: the dot and a pixel either side.
    public var columnWidth: Int { dotDiameter + 2 }

    /// Distance between the centres of two neighbouring dots: always the same, so dots stay equidistant.
    public var pitch: Int { dotDiameter + dotSpacing }

    /// The largest indicator image: the strip's thickness across, a pitch less one pixel along.
    public var cellSize: Size { Size(width: columnWidth, height: pitch - 1) }

    /// The default window size for a strip `length` pixels long: 7 on a 64-row column, so the
    /// current dot can sit in the middle with three either side (about as many as one can count
    /// at a glance), and as many as fit on shorter strips.
    public static func defaultMaximumVisibleDots(forLength length: Int) -> Int? {
        length >= 48 ? 7 : nil
    }
}
