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
        rows(titles: titles, in: area, lineHeight: font.lineHeight, fit: font.fitting, measure: font.width(of:))
    }

    /// The rows that show in `area` drawn through `fonts`: as tall as the chain's line.
    public func rows(titles: [String], in area: Rect, fonts: FontChain) -> [OverviewRow] {
        rows(titles: titles, in: area, lineHeight: fonts.lineHeight, fit: fonts.fitting, measure: fonts.width(of:))
    }

    private func rows(
        titles: [String], in area: Rect, lineHeight: Int, fit: (String, Int) -> String, measure: (String) -> Int
    ) -> [OverviewRow] {
        let count = max(1, area.height / lineHeight)
        let first = firstVisibleRow(rows: count)
        var rows: [OverviewRow] = []
        for row in 0..<count {
            let page = first + row
            guard page < titles.count else { break }
            let box = Rect(x: area.x, y: area.y + row * lineHeight, width: area.width, height: lineHeight)
            let text = fit("\(page + 1) \(titles[page])", max(0, area.width - 1))
            let ink = Rect(x: box.x + 1, y: box.y, width: measure(text), height: lineHeight)
            rows.append(OverviewRow(page: page, text: text, box: box, ink: ink))
        }
        return rows
    }
}

extension Bitmap {
    /// Draws the page-title list into `area`: one title per line, the selection highlighted.
    public mutating func drawPageOverview(_ overview: PageOverview, titles: [String], in area: Rect, font: BitmapFont) {
        drawPageOverview(overview, rows: overview.rows(titles: titles, in: area, font: font), in: area) {
            $0.drawText($1, at: $2, font: font, ink: $3)
        }
    }

    /// Draws the page-title list into `area` through `fonts` (titles in other scripts).
    public mutating func drawPageOverview(_ overview: PageOverview, titles: [String], in area: Rect, fonts: FontChain) {
        drawPageOverview(overview, rows: overview.rows(titles: titles, in: area, fonts: fonts), in: area) {
            $0.drawText($1, at: $2, fonts: fonts, ink: $3)
        }
    }

    private mutating func drawPageOverview(
        _ overview: PageOverview, rows: [OverviewRow], in area: Rect,
        draw: (inout Bitmap, String, Point, Ink) -> Int
    ) {
        let saved = clip
        clip = area.intersection(saved)
        fillRect(area, ink: .off)
        for row in rows {
            let selected = row.page == overview.selection
            if selected { fillRect(row.box) }
            _ = draw(&self, row.text, row.ink.origin, selected ? .off : .on)
        }
        clip = saved
    }
}
