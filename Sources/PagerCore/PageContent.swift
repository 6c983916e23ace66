import PagerGraphics

/// One page of the pager: something that can draw itself into a screen-sized canvas.
///
/// The app defines its page kinds (usually as an enum), so the pager is generic over
/// them rather than storing existentials: that keeps the core usable under Embedded Swift.
public protocol PageContent {
    /// A short title, for the overview list and for messages that name the page.
    var title: String { get }

    /// Draws the page as it looks at `instant` into `canvas`, which is one screen of content.
    func draw(into canvas: inout Bitmap, at instant: Timestamp)
}
