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

/// One row of the page-title list as laid out: its number and title, cut to the row with an
/// ellipsis when too long, and the row's box.
public struct OverviewRow: Hashable, Sendable {
    /// The page the row stands for.
    public var page: Int
    /// "3 Title" as drawn.
    public var text: String
    /// The row: the full width of the list, a line high.
    public var box: Rect
    /// Where the text's glyphs go: a pixel in from the left, as wide as the text.
    public var ink: Rect
}

extension PageOverview {
    /// The rows that show in `area`, one title each, each cut to fit with the font's ellipsis.
    public func rows(titles: [String], in area: Rect, font: BitmapFont) -> [OverviewRow] {
        let count = max(1, area.height / font.lineHeight)
        let first = firstVisibleRow(rows: count)
        var rows: [OverviewRow] = []
        for row in 0..<count {
            let page = first + row
            guard page < titles.count else { break }
            let box = Rect(x: area.x, y: area.y + row * font.lineHeight, width: area.width, height: font.lineHeight)
            let text = font.fitting("\(page + 1) \(titles[page])", width: max(0, area.width - 1))
            let ink = Rect(x: box.x + 1, y: box.y, width: font.width(of: text), height: font.lineHeight)
            rows.append(OverviewRow(page: page, text: text, box: box, ink: ink))
        }
        return rows
    }
}

extension Bitmap {
    /// Draws the page-title list into `area`: one title per line, the selection highlighted.
    public mutating func drawPageOverview(_ overview: PageOverview, titles: [String], in area: Rect, font: BitmapFont) {
        let saved = clip
        clip = area.intersection(saved)
        fillRect(area, ink: .off)
        for row in overview.rows(titles: titles, in: area, font: font) {
            let selected = row.page == overview.selection
            if selected { fillRect(row.box) }
            drawText(row.text, at: row.ink.origin, font: font, ink: selected ? .off : .on)
        }
        clip = saved
    }
}
