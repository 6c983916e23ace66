import CrownVocabulary
import PagerGraphics

/// Draws a pager onto a 1-bit frame at an instant: the pages (sliding, scrolling or bouncing
/// when they do), the page-title list when it is open, and the page indicator beside the crown
/// (or centred at the bottom for horizontal paging).
public struct PagerRenderer: Hashable, Sendable {
    /// The size of the frame, usually the panel's.
    public var size: Size
    /// The look and placement of the page indicator.
    public var indicatorStyle: PageIndicatorStyle
    /// The font of the page-title list.
    public var overviewFont: BitmapFont = .fixed6x10
    /// Fonts the title list falls back on, in order, for characters its font lacks (misc-fixed
    /// after a configured font, Unifont's glyphs); none draws with the font alone.
    public var overviewFallbacks: [BitmapFont] = []

    /// The title list's font: `overviewFont`, or misc-fixed 5x8 where a line of it is taller
    /// than the content area (the bottom indicator on a 16-row panel leaves 8 rows).
    public var overviewFontThatFits: BitmapFont {
        contentRect.height < overviewFont.lineHeight ? .fixed5x8 : overviewFont
    }

    /// A renderer for frames of `size`.
    public init(size: Size, indicatorStyle: PageIndicatorStyle = PageIndicatorStyle()) {
        self.size = size
        self.indicatorStyle = indicatorStyle
    }

    /// The area a page draws into: the screen less the indicator strip and a one-pixel gap.
    public var contentRect: Rect {
        let thickness = indicatorStyle.columnWidth + 1
        switch indicatorStyle.crownSide {
        case .right: return Rect(x: 0, y: 0, width: max(0, size.width - thickness), height: size.height)
        case .left:
            return Rect(x: min(size.width, thickness), y: 0, width: max(0, size.width - thickness), height: size.height)
        case .bottom: return Rect(x: 0, y: 0, width: size.width, height: max(0, size.height - thickness))
        }
    }

    /// The strip the indicators sit in: a column on the crown's side, or a row at the bottom.
    public var indicatorColumn: Rect {
        let thickness = min(indicatorStyle.columnWidth, indicatorStyle.crownSide.isVertical ? size.width : size.height)
        switch indicatorStyle.crownSide {
        case .right: return Rect(x: size.width - thickness, y: 0, width: thickness, height: size.height)
        case .left: return Rect(x: 0, y: 0, width: thickness, height: size.height)
        case .bottom: return Rect(x: 0, y: size.height - thickness, width: size.width, height: thickness)
        }
    }

    /// The frame for `pager` alone at `instant`: plain dots, fixed-height pages.
    public func render<Page: PageContent>(_ pager: PageStack<Page>, at instant: Timestamp) -> Bitmap {
        var frame = Bitmap(size: size)
        var scratch = RenderScratch()
        drawPages(of: pager, scroll: nil, bounce: 0, at: instant, into: &frame, scratch: &scratch)
        drawIndicator(pages: pager.numberOfPages, current: pager.displayedPage(at: instant), into: &frame)
        return frame
    }

    /// The frame for everything `controller` shows at `instant`.
    public func render<Page: PageContent>(_ controller: PageNavigator<Page>, at instant: Timestamp) -> Bitmap {
        var frame = Bitmap(size: size)
        var scratch = RenderScratch()
        render(controller, at: instant, into: &frame, scratch: &scratch)
        return frame
    }

    /// Draws the frame for everything `controller` shows at `instant` into `frame`, the same
    /// picture `render(_:at:)` returns, with `scratch` kept from the frame before. A frame loop
    /// that passes the same frame and scratch every time allocates nothing while their sizes stay
    /// the same.
    public func render<Page: PageContent>(
        _ controller: PageNavigator<Page>, at instant: Timestamp, into frame: inout Bitmap,
        scratch: inout RenderScratch
    ) {
        frame.reset(to: size)
        var decoration = IndicatorDecoration(plate: controller.backgroundPlate(at: instant))
        if let overview = controller.overview {
            let titles = controller.pager.pages.map { $0.title }
            let fonts = overviewFallbacks.isEmpty ? nil : FontChain(overviewFontThatFits, fallbacks: overviewFallbacks)
            let mark = controller.currentPageTimerLook(at: instant).map {
                OverviewTimerMark(
                    page: controller.pager.currentPage, look: $0, dotDiameter: indicatorStyle.dotDiameter,
                    lineHeight: fonts?.lineHeight ?? overviewFontThatFits.lineHeight)
            }
            if let fonts {
                frame.drawPageOverview(overview, titles: titles, in: contentRect, fonts: fonts, mark: mark)
            } else {
                frame.drawPageOverview(
                    overview, titles: titles, in: contentRect, font: overviewFontThatFits, mark: mark)
            }
            drawIndicator(
                pages: controller.pager.numberOfPages, current: overview.selection, decoration: decoration, into: &frame
            )
            return
        }
        drawPages(
            of: controller.pager, scroll: controller.scroll.position(at: instant),
            bounce: controller.contentShift(at: instant), at: instant, into: &frame, scratch: &scratch)
        let displayed = controller.pager.displayedPage(at: instant)
        var stretch = 0
        if displayed == controller.pager.currentPage, controller.scroll.isScrollable {
            stretch = indicatorStyle.pitch
            decoration.capsuleFraction = controller.scroll.fraction(at: instant)
        }
        if displayed == controller.pager.currentPage { decoration.timer = controller.timerLook(at: instant) }
        drawIndicator(
            pages: controller.pager.numberOfPages, current: displayed, stretch: stretch, decoration: decoration,
            into: &frame, dots: &scratch.dots)
    }

    /// How many rows the pages' content stands above where page 0 stands at rest, at `instant`,
    /// when pages move vertically: two frames' values differ by the rows the content moved
    /// between them (a slide, a scroll, a bounce), which a display can move instead of redraw.
    /// Nil when pages move sideways or the page-title list is open.
    public func contentPosition<Page: PageContent>(_ controller: PageNavigator<Page>, at instant: Timestamp) -> Int? {
        guard indicatorStyle.crownSide.isVertical, controller.overview == nil, controller.pager.numberOfPages > 0 else {
            return nil
        }
        // The same arithmetic as drawPages: the page the slide starts from, and the rows it has moved.
        let extent = contentRect.height
        let position = controller.pager.position(at: instant)
        let base = position.rounded(.down)
        let offset = Int(((position - base) * Double(extent)).rounded())
        let bounce = controller.contentShift(at: instant)
        var scrolled = 0
        if offset == 0, controller.pager.normalizedPage(Int(base)) == controller.pager.currentPage {
            scrolled = Int((controller.scroll.position(at: instant)).rounded())
        }
        return Int(base) * extent + offset + scrolled - bounce
    }

    private func drawIndicator(
        pages: Int, current: Int, stretch: Int = 0, decoration: IndicatorDecoration = IndicatorDecoration(),
        into frame: inout Bitmap
    ) {
        var dots: [IndicatorDot] = []
        drawIndicator(
            pages: pages, current: current, stretch: stretch, decoration: decoration, into: &frame, dots: &dots)
    }

    /// Draws the indicator, its dots laid out in `dots`, whose storage is reused.
    private func drawIndicator(
        pages: Int, current: Int, stretch: Int, decoration: IndicatorDecoration, into frame: inout Bitmap,
        dots: inout [IndicatorDot]
    ) {
        let strip = indicatorColumn
        if let bar = IndicatorPositionBar.layout(
            numberOfPages: pages, currentPage: current, in: strip, style: indicatorStyle)
        {
            frame.drawPositionBar(bar, decoration: decoration, strip: strip)
            return
        }
        PageIndicatorLayout.dots(
            numberOfPages: pages, currentPage: current, in: strip, style: indicatorStyle, currentStretch: stretch,
            into: &dots)
        frame.drawPageIndicator(dots, images: indicatorStyle.images, decoration: decoration, strip: strip)
    }

    /// What the indicator is made of for `pages` with `current` shown: dots as Apple lays them
    /// out where a window of them fits, else the position bar.
    public func indicatorShape(pages: Int, current: Int, stretch: Int = 0) -> IndicatorShape {
        let strip = indicatorColumn
        if let bar = IndicatorPositionBar.layout(
            numberOfPages: pages, currentPage: current, in: strip, style: indicatorStyle)
        {
            return .positionBar(bar)
        }
        return .dots(
            PageIndicatorLayout.dots(
                numberOfPages: pages, currentPage: current, in: strip, style: indicatorStyle, currentStretch: stretch))
    }

    /// Draws the page at the current position, or the two pages a slide is between.
    ///
    /// `scroll` is where the current page's content stands; in a slide the earlier page shows
    /// its end and the later one its top, so tall pages run on into each other. `bounce` shifts
    /// everything along the paging axis. Each page is drawn into a canvas of `scratch` first
    /// (or found there, drawn before), then placed.
    func drawPages<Page: PageContent>(
        of pager: PageStack<Page>, scroll: Double?, bounce: Int, at instant: Timestamp, into frame: inout Bitmap,
        scratch: inout RenderScratch
    ) {
        guard pager.numberOfPages > 0 else { return }
        let content = contentRect
        let extent = indicatorStyle.crownSide.isVertical ? content.height : content.width
        let position = pager.position(at: instant)
        let base = position.rounded(.down)
        let offset = Int(((position - base) * Double(extent)).rounded())
        let upper = pager.normalizedPage(Int(base))
        frame.clip = content
        if offset == 0 {
            let scrolled = upper == pager.currentPage ? Int((scroll ?? 0).rounded()) : 0
            drawPage(
                upper, of: pager, scrolled: scrolled, shift: bounce, at: instant, into: &frame, scratch: &scratch)
        } else {
            let end = pager.pages[upper].contentHeight(in: content.size) - content.height
            drawPage(
                upper, of: pager, scrolled: max(0, end), shift: bounce - offset, at: instant, into: &frame,
                scratch: &scratch)
            drawPage(
                pager.normalizedPage(Int(base) + 1), of: pager, scrolled: 0, shift: bounce + extent - offset,
                at: instant, into: &frame, scratch: &scratch)
        }
        frame.clip = frame.bounds
    }

    /// Draws page `index` of `pager` into `frame`, `scrolled` rows up and `shift` along the
    /// paging axis. A page that draws alike at every instant is drawn once into a kept canvas
    /// and placed from there until the pages are replaced; any other is drawn every time.
    func drawPage<Page: PageContent>(
        _ index: Int, of pager: PageStack<Page>, scrolled: Int, shift: Int, at instant: Timestamp,
        into frame: inout Bitmap, scratch: inout RenderScratch, marksMore: Bool = true
    ) {
        let page = pager.pages[index]
        let content = contentRect
        // A page may be taller than the screen, within reason: a hostile height must not exhaust memory.
        let height = min(max(page.contentHeight(in: content.size), content.height), 4096)
        let canvasSize = Size(width: content.width, height: height)
        let origin =
            indicatorStyle.crownSide.isVertical
            ? Point(x: content.x, y: content.y + shift - scrolled)
            : Point(x: content.x + shift, y: content.y - scrolled)
        if page.drawsAlikeAtEveryInstant {
            let key = RenderScratch.PageDrawing.Key(
                page: index, generation: pager.contentGeneration, canvas: canvasSize, viewport: content.size)
            let slot = scratch.drawing(for: key)
            if !scratch.drawings[slot].isDrawn {
                scratch.drawings[slot].bitmap.reset(to: canvasSize)
                page.draw(into: &scratch.drawings[slot].bitmap, viewport: content.size, at: instant)
                scratch.drawings[slot].isDrawn = true
            }
            frame.blit(scratch.drawings[slot].bitmap, at: origin, opaque: true)
        } else {
            scratch.page.reset(to: canvasSize)
            page.draw(into: &scratch.page, viewport: content.size, at: instant)
            frame.blit(scratch.page, at: origin, opaque: true)
        }
        if marksMore, let mark = moreMark(pageHeight: height, scrolled: scrolled) {
            frame.drawMoreMark(mark.offsetBy(dx: origin.x - content.x, dy: origin.y - content.y + scrolled))
        }
    }

    /// Columns a page taller than the screen keeps free on its right for the "more" mark.
    public static let moreMarkGutter = 6

    /// Where the "more" mark goes when a page `pageHeight` tall, scrolled by `scrolled` rows, has
    /// lines below the screen: a small down-pointing triangle in the bottom-right corner of the
    /// content area, inside the gutter the page keeps free. Nil when the rest of the page shows.
    public func moreMark(pageHeight: Int, scrolled: Int) -> Rect? {
        let content = contentRect
        guard pageHeight - scrolled > content.height, content.width > Self.moreMarkGutter, content.height >= 4 else {
            return nil
        }
        let width = Self.moreMarkGutter - 1
        return Rect(x: content.maxX - width, y: content.maxY - 4, width: width, height: 3)
    }
}

/// The page indicator as laid out: Apple's dots, or the position bar where too few dots fit.
public enum IndicatorShape: Hashable, Sendable {
    /// Dots, the current one solid.
    case dots([IndicatorDot])
    /// A track with a thumb at the current page's position.
    case positionBar(IndicatorPositionBar)

    /// The pixels each part of the indicator covers.
    public var bounds: [Rect] {
        switch self {
        case .dots(let dots): return dots.map { $0.bounds }
        case .positionBar(let bar): return [bar.track]
        }
    }
}

extension Bitmap {
    /// The "more" mark in `rect`: a triangle pointing down, as wide as the rect, a row less each row down.
    public mutating func drawMoreMark(_ rect: Rect) {
        for row in 0..<rect.height {
            let inset = row
            guard rect.width - 2 * inset > 0 else { break }
            drawHorizontalLine(x: rect.x + inset, y: rect.y + row, length: rect.width - 2 * inset)
        }
    }
}
