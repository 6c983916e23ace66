import CrownVocabulary
import PagerCore
import PagerGraphics

/// A notification as the overlay draws it over the whole panel: the title in bold, the message
/// wrapped below it from its `scroll` line, a "more" mark while lines wait below. It slides down
/// from the top edge over the page when it comes.
package struct NotificationOverlay: Hashable, Sendable {
    /// How long the overlay takes to slide in: a few frames on any bus, short enough not to keep
    /// the person waiting.
    package static let slideDuration = TimeSpan.milliseconds(200)

    /// The first line; nil for none.
    package var title: String?
    /// The message, wrapped to the overlay's width.
    package private(set) var lines: [String]
    /// The message's first line shown, from 0.
    package var scroll: Int
    /// When it began to slide in.
    package var since: Timestamp
    /// The font it draws with.
    package let font: BitmapFont
    /// The panel's size.
    package let size: Size

    /// `notification` laid out for a panel of `size` in `font`, or a smaller font where two of its
    /// lines do not fit (a 16-row panel), shown from `since`.
    package init(_ notification: PagerNotification, size: Size, font: BitmapFont, scroll: Int = 0, since: Timestamp) {
        let fitting = [font, .fixed6x10].first { 2 * $0.lineHeight <= size.height } ?? .fixed5x8
        self.font = fitting
        self.size = size
        title = notification.title.flatMap { $0.isEmpty ? nil : $0 }
        self.scroll = scroll
        self.since = since
        // The gutter stays free whether or not the mark shows, so scrolling never rewraps.
        lines = fitting.wrap(notification.message, width: max(1, size.width - PagerRenderer.moreMarkGutter))
    }

    /// Whether the title's rule fits: panels of 32 rows and more.
    private var hasRule: Bool { title != nil && size.height >= 32 }

    /// The row the message starts at, below the title and its rule.
    package var messageTop: Int {
        guard title != nil else { return 0 }
        return font.lineHeight + (hasRule ? 2 : 0)
    }

    /// How many of the message's lines the overlay shows at once; at least one.
    package var visibleLines: Int { max(1, (size.height - messageTop) / font.lineHeight) }

    /// The last line `scroll` may reach: the one that shows the message's end.
    package var lastScroll: Int { max(0, lines.count - visibleLines) }

    /// Whether lines wait below the ones shown.
    package var hasMore: Bool { scroll < lastScroll }

    /// How many rows above its place the overlay stands at `instant`: the panel's height before
    /// it comes, 0 once it is in. Eased out, so it lands softly.
    package func rowsAbove(at instant: Timestamp) -> Int {
        let elapsed = instant - since
        guard elapsed < Self.slideDuration else { return 0 }
        guard elapsed > .zero else { return size.height }
        let remaining = 1 - elapsed.seconds / Self.slideDuration.seconds
        return Int((Double(size.height) * remaining * remaining * remaining).rounded())
    }

    /// Whether it is still sliding in at `instant`.
    package func isSliding(at instant: Timestamp) -> Bool { rowsAbove(at: instant) > 0 }

    /// Draws the overlay over `frame` as it stands at `instant`.
    package func draw(into frame: inout Bitmap, at instant: Timestamp) {
        let top = -rowsAbove(at: instant)
        frame.fillRect(Rect(x: 0, y: top, width: size.width, height: size.height), ink: .off)
        // While it slides, a line along its lower edge parts it from the page it covers.
        if top < 0 { frame.drawHorizontalLine(x: 0, y: top + size.height, length: size.width) }
        if let title {
            // Bold as misc-fixed has none: the line drawn twice, a column apart.
            let fitted = font.fitting(title, width: size.width - 1)
            frame.drawText(fitted, at: Point(x: 0, y: top), font: font)
            frame.drawText(fitted, at: Point(x: 1, y: top), font: font)
            if hasRule { frame.drawHorizontalLine(x: 0, y: top + font.lineHeight, length: size.width) }
        }
        let shown = lines.dropFirst(scroll).prefix(visibleLines)
        for (row, line) in shown.enumerated() {
            frame.drawText(line, at: Point(x: 0, y: top + messageTop + row * font.lineHeight), font: font)
        }
        if hasMore {
            let gutter = PagerRenderer.moreMarkGutter
            frame.drawMoreMark(Rect(x: size.width - gutter + 1, y: top + size.height - 4, width: gutter - 1, height: 3))
        }
    }

    /// Draws the mark that says passive notifications wait: a small square at the end of the
    /// indicator's `strip` away from the crown's paging axis start (its top, or its left end
    /// for an indicator along the bottom), in a dark border so it stands out over a track.
    package static func drawWaitingMark(into frame: inout Bitmap, strip: Rect) {
        let side = 3
        let x = strip.width > strip.height ? strip.x + 1 : strip.x + (strip.width - side) / 2
        let y = strip.width > strip.height ? strip.y + (strip.height - side) / 2 : strip.y + 1
        frame.fillRect(Rect(x: x - 1, y: y - 1, width: side + 2, height: side + 2), ink: .off)
        frame.fillRect(Rect(x: x, y: y, width: side, height: side))
    }
}
