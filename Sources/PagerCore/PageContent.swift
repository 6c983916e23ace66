import CrownVocabulary
import PagerGraphics

/// One page of the pager: something that can draw itself into a canvas as wide as the content area.
///
/// The app defines its page kinds (usually as an enum), so the pager is generic over
/// them rather than storing existentials: that keeps the core usable under Embedded Swift.
public protocol PageContent {
    /// A short title, for the overview list and for messages that name the page.
    var title: String { get }

    /// How tall the page's content is when the screen shows `viewport`: the screen's height
    /// for a fixed-height page (the default, as watchOS advises), more for a page that scrolls.
    func contentHeight(in viewport: Size) -> Int

    /// Whether a short press of the crown does something on this page; if not, it returns to the first page.
    var hasPressAction: Bool { get }

    /// Whether a long press does something on this page (`PagerEvent.pageAction`) instead of opening the title list.
    var hasHoldAction: Bool { get }

    /// How long the page stays before the pager moves on by itself (UIKit's `setDuration(_:forPage:)`).
    var duration: PageDuration { get }

    /// Whether the page draws the same at every instant, its look changing only when the pager's
    /// pages are replaced: a renderer may then keep its drawing and place it again frame after
    /// frame (a slide, a scroll) instead of drawing it anew.
    var drawsAlikeAtEveryInstant: Bool { get }

    /// Draws the page as it looks at `instant` into `canvas`, which is `contentHeight(in:)` tall.
    func draw(into canvas: inout Bitmap, at instant: Timestamp)

    /// Draws the page for a screen showing `viewport` of it: a page taller than the screen keeps
    /// the rightmost `PagerRenderer.moreMarkGutter` columns free for the "more" mark.
    func draw(into canvas: inout Bitmap, viewport: Size, at instant: Timestamp)
}

extension PageContent {
    /// Fixed height: one screen.
    public func contentHeight(in viewport: Size) -> Int { viewport.height }
    /// No action of its own.
    public var hasPressAction: Bool { false }
    /// A long press opens the title list.
    public var hasHoldAction: Bool { false }
    /// Drawn anew for every frame: the page may change with time.
    public var drawsAlikeAtEveryInstant: Bool { false }
    /// The pager's page duration applies.
    public var duration: PageDuration { .automatic }
    /// Draws as `draw(into:at:)` does.
    public func draw(into canvas: inout Bitmap, viewport: Size, at instant: Timestamp) {
        draw(into: &canvas, at: instant)
    }
}

/// How long one page stays before the pager moves on by itself.
public enum PageDuration: Hashable, Sendable {
    /// The pager's duration (`PagerConfiguration.pageDuration`), if it has one.
    case automatic
    /// The page stays until the crown moves it, whatever the pager's duration.
    case never
    /// The page's own duration, instead of the pager's.
    case after(TimeSpan)
}
