import PagerGraphics

/// Draws a pager onto a 1-bit frame at an instant: the pages (sliding, when a slide is under way)
/// and the page-indicator column beside the crown.
public struct PagerRenderer: Hashable, Sendable {
    /// The size of the frame, usually the panel's.
    public var size: Size
    /// The look and placement of the page indicator.
    public var indicatorStyle: PageIndicatorStyle

    /// A renderer for frames of `size`.
    public init(size: Size, indicatorStyle: PageIndicatorStyle = PageIndicatorStyle()) {
        self.size = size
        self.indicatorStyle = indicatorStyle
    }

    /// The area a page draws into: the screen less the indicator column and a one-pixel gap.
    public var contentRect: Rect {
        let width = max(0, size.width - indicatorStyle.columnWidth - 1)
        switch indicatorStyle.crownSide {
        case .right: return Rect(x: 0, y: 0, width: width, height: size.height)
        case .left: return Rect(x: size.width - width, y: 0, width: width, height: size.height)
        }
    }

    /// The column the indicator dots sit in, on the crown's side.
    public var indicatorColumn: Rect {
        let width = min(indicatorStyle.columnWidth, size.width)
        switch indicatorStyle.crownSide {
        case .right: return Rect(x: size.width - width, y: 0, width: width, height: size.height)
        case .left: return Rect(x: 0, y: 0, width: width, height: size.height)
        }
    }

    /// The frame for `pager` at `instant`.
    public func render<Page: PageContent>(_ pager: Pager<Page>, at instant: Timestamp) -> Bitmap {
        var frame = Bitmap(size: size)
        drawPages(of: pager, at: instant, into: &frame)
        let dots = PageIndicatorLayout.dots(
            numberOfPages: pager.numberOfPages, currentPage: pager.displayedPage(at: instant),
            column: indicatorColumn, style: indicatorStyle)
        frame.drawIndicatorDots(dots)
        return frame
    }

    /// Draws the page at the current position, or the two pages a slide is between.
    func drawPages<Page: PageContent>(of pager: Pager<Page>, at instant: Timestamp, into frame: inout Bitmap) {
        guard pager.numberOfPages > 0 else { return }
        let content = contentRect
        let position = pager.position(at: instant)
        let base = position.rounded(.down)
        let offset = Int(((position - base) * Double(content.height)).rounded())
        let upper = pager.normalizedPage(Int(base))
        frame.clip = content
        drawPage(pager.pages[upper], at: instant, top: content.y - offset, into: &frame)
        if offset > 0 {
            let lower = pager.normalizedPage(Int(base) + 1)
            drawPage(pager.pages[lower], at: instant, top: content.y + content.height - offset, into: &frame)
        }
        frame.clip = frame.bounds
    }

    private func drawPage<Page: PageContent>(_ page: Page, at instant: Timestamp, top: Int, into frame: inout Bitmap) {
        let content = contentRect
        var canvas = Bitmap(width: content.width, height: content.height)
        page.draw(into: &canvas, at: instant)
        frame.blit(canvas, at: Point(x: content.x, y: top), opaque: true)
    }
}
