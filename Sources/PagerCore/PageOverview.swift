import CrownVocabulary
import PagerGraphics

/// The page-title list a long press opens, for jumping straight to a page in a long list.
public struct PageOverview: Hashable, Sendable {
    /// The highlighted page; a short press jumps there.
    public private(set) var selection: Int
    /// How many pages the list holds.
    public let numberOfPages: Int

    /// A list of `numberOfPages` titles with `selection` highlighted.
    public init(numberOfPages: Int, selection: Int) {
        self.numberOfPages = max(0, numberOfPages)
        self.selection = min(max(selection, 0), max(0, numberOfPages - 1))
    }

    /// Moves the highlight by `rows`, stopping at the first and last title.
    public mutating func move(by rows: Int) {
        selection = min(max(saturatingSum(selection, rows), 0), max(0, numberOfPages - 1))
    }

    /// The first row shown when `rows` fit: the selection stays in view, in the middle where it can.
    public func firstVisibleRow(rows: Int) -> Int {
        PageIndicatorLayout.windowStart(numberOfPages: numberOfPages, visible: max(1, rows), currentPage: selection)
    }
}

extension Bitmap {
    /// Draws the page-title list into `area`: one title per line, the selection highlighted.
    public mutating func drawPageOverview(_ overview: PageOverview, titles: [String], in area: Rect, font: BitmapFont) {
        let rows = max(1, area.height / font.lineHeight)
        let first = overview.firstVisibleRow(rows: rows)
        let saved = clip
        clip = area.intersection(saved)
        fillRect(area, ink: .off)
        for row in 0..<rows {
            let page = first + row
            guard page < titles.count else { break }
            let line = Rect(x: area.x, y: area.y + row * font.lineHeight, width: area.width, height: font.lineHeight)
            let selected = page == overview.selection
            if selected { fillRect(line) }
            drawText(
                "\(page + 1) \(titles[page])", at: Point(x: line.x + 1, y: line.y), font: font,
                ink: selected ? .off : .on)
        }
        clip = saved
    }
}
