import PagerGraphics

/// The page indicator where too few dots fit for Apple's window of dots (a 16-row strip holds
/// two): a capsule along the strip with a solid thumb that moves like a scroll position, the
/// first page at one end and the last at the other.
public struct IndicatorPositionBar: Hashable, Sendable {
    /// The hollow capsule: the whole strip, less a pixel at each end, one dot thick.
    public var track: Rect
    /// The solid part inside the track that says where the current page is.
    public var thumb: Rect
    /// True when the strip is a column (vertical pages).
    public var isVertical: Bool

    /// The fewest dots a window needs: the current one with a shrunk "more" dot on each side.
    public static let fewestWindowDots = 3

    /// Whether `numberOfPages` need the bar in a strip `length` long: not every page's dot fits,
    /// and not even a window of `fewestWindowDots`.
    public static func isNeeded(numberOfPages: Int, length: Int, style: PageIndicatorStyle) -> Bool {
        let fit = PageIndicatorLayout.capacity(length: length, style: style)
        return numberOfPages > fit && fit < fewestWindowDots
    }

    /// The bar for `currentPage` of `numberOfPages` in `strip`, or nil where dots are drawn instead.
    ///
    /// The thumb is 1/`numberOfPages` of the track's inside (at least two pixels, so it never
    /// vanishes) and travels from one end (the first page) to the other (the last).
    public static func layout(
        numberOfPages: Int, currentPage: Int, in strip: Rect, style: PageIndicatorStyle
    ) -> IndicatorPositionBar? {
        guard numberOfPages > 1 else { return nil }
        let vertical = style.crownSide.isVertical
        let length = vertical ? strip.height : strip.width
        guard isNeeded(numberOfPages: numberOfPages, length: length, style: style) else { return nil }
        let thickness = min(style.dotDiameter, vertical ? strip.width : strip.height)
        // Along the strip: a pixel of margin at each end; across: centred as the dots are.
        let along = max(thickness, length - 2)
        let across = (vertical ? strip.x + (strip.width - thickness) / 2 : strip.y + (strip.height - thickness) / 2)
        let start = (vertical ? strip.y : strip.x) + (length - along) / 2
        let track =
            vertical
            ? Rect(x: across, y: start, width: thickness, height: along)
            : Rect(x: start, y: across, width: along, height: thickness)
        // The inside of the track, a pixel in from its outline.
        let inside = track.insetBy(1)
        let room = max(0, vertical ? inside.height : inside.width)
        let thumbLength = min(room, max(2, room / numberOfPages))
        let current = min(max(currentPage, 0), numberOfPages - 1)
        let travel = room - thumbLength
        // Rounded to the nearest pixel; the last page lands exactly at the far end.
        let offset = (travel * current * 2 + (numberOfPages - 1)) / (2 * (numberOfPages - 1))
        let thumb =
            vertical
            ? Rect(x: inside.x, y: inside.y + offset, width: inside.width, height: thumbLength)
            : Rect(x: inside.x + offset, y: inside.y, width: thumbLength, height: inside.height)
        return IndicatorPositionBar(track: track, thumb: thumb, isVertical: vertical)
    }
}
