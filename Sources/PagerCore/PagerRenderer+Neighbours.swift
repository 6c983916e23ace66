import CrownVocabulary
import PagerGraphics

extension PagerRenderer {
    /// Draws into `frame` the screenful a turn brings into view next, below the glass (`step`
    /// 1) or above it (-1), the indicator strip left dark: the rest of a page taller than the
    /// screen while it has rows that way, else the page below at its top or the page above at its
    /// end, as a slide shows them, without the "more" mark. Returns false, drawing nothing, when there is no such page (the
    /// ends without wrapping), the pages move sideways, or the title list is open.
    public func renderNeighbour<Page: PageContent>(
        _ controller: PageNavigator<Page>, step: Int, at instant: Timestamp, into frame: inout Bitmap,
        scratch: inout RenderScratch
    ) -> Bool {
        let pager = controller.pager
        guard indicatorStyle.crownSide.isVertical, controller.overview == nil, pager.numberOfPages > 0 else {
            return false
        }
        let content = contentRect
        var index = pager.currentPage
        let scroll = Int(controller.scroll.position(at: instant).rounded())
        var scrolled = scroll + step * content.height
        // A tall page scrolls before it pages: its own rows come into view first.
        if step > 0 ? scroll + content.height >= pager.pages[index].contentHeight(in: content.size) : scroll <= 0 {
            let neighbour = pager.currentPage + step
            guard pager.configuration.wrapsAround || pager.pages.indices.contains(neighbour) else { return false }
            index = pager.normalizedPage(neighbour)
            // As drawPages draws the two pages of a slide: the upper one scrolled to its end.
            scrolled = step < 0 ? max(0, pager.pages[index].contentHeight(in: content.size) - content.height) : 0
        }
        frame.reset(to: size)
        frame.clip = content
        // Without the "more" mark: it stands still on the glass, which the driver rewrites anyway.
        drawPage(
            index, of: pager, scrolled: scrolled, shift: 0, at: instant, into: &frame, scratch: &scratch,
            marksMore: false)
        frame.clip = frame.bounds
        return true
    }
}
