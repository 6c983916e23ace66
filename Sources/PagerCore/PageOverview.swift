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
    /// The rows that show in `area`, one title each, each cut to fit with the font's ellipsis;
    /// the row of `markedPage` keeps `markWidth` columns free at its right end for the timer mark.
    public func rows(
        titles: [String], in area: Rect, font: BitmapFont, markedPage: Int? = nil, markWidth: Int = 0
    ) -> [OverviewRow] {
        rows(
            titles: titles, in: area, lineHeight: font.lineHeight, fit: font.fitting, measure: font.width(of:),
            marked: markedPage, markWidth: markWidth)
    }

    /// The rows that show in `area` drawn through `fonts`: as tall as the chain's line.
    public func rows(
        titles: [String], in area: Rect, fonts: FontChain, markedPage: Int? = nil, markWidth: Int = 0
    ) -> [OverviewRow] {
        rows(
            titles: titles, in: area, lineHeight: fonts.lineHeight, fit: fonts.fitting, measure: fonts.width(of:),
            marked: markedPage, markWidth: markWidth)
    }

    private func rows(
        titles: [String], in area: Rect, lineHeight: Int, fit: (String, Int) -> String, measure: (String) -> Int,
        marked: Int?, markWidth: Int
    ) -> [OverviewRow] {
        let count = max(1, area.height / lineHeight)
        let first = firstVisibleRow(rows: count)
        var rows: [OverviewRow] = []
        for row in 0..<count {
            let page = first + row
            guard page < titles.count else { break }
            let box = Rect(x: area.x, y: area.y + row * lineHeight, width: area.width, height: lineHeight)
            let room = area.width - 1 - (page == marked ? markWidth : 0)
            let text = fit("\(page + 1) \(titles[page])", max(0, room))
            let ink = Rect(x: box.x + 1, y: box.y, width: measure(text), height: lineHeight)
            rows.append(OverviewRow(page: page, text: text, box: box, ink: ink))
        }
        return rows
    }
}

/// The timer's look on the title list: a dot like the current page's, at the right end of its row.
public struct OverviewTimerMark: Hashable, Sendable {
    /// The page whose time runs or is paused: the current page.
    public var page: Int
    /// Filling or paused, as the current dot would show it.
    public var look: TimerLook
    /// The dot's diameter, at most the indicator's and small enough for a row with a pixel above and below.
    public var diameter: Int

    /// A mark for `page` with `look`, as wide as the indicator's dots (`dotDiameter`) where a row of `lineHeight` allows.
    public init(page: Int, look: TimerLook, dotDiameter: Int, lineHeight: Int) {
        self.page = page
        self.look = look
        let fits = max(1, lineHeight - 2)
        let wanted = min(dotDiameter, fits)
        diameter = wanted % 2 == 1 ? wanted : wanted - 1
    }

    /// Columns the mark keeps free at the right end of its row: the dot and a pixel each side.
    public var width: Int { diameter + 2 }

    /// The dot for the row `box`: against its right end, centred in its height.
    public func dot(in box: Rect) -> IndicatorDot {
        let radius = (diameter - 1) / 2
        return IndicatorDot(
            page: page, center: Point(x: box.maxX - 2 - radius, y: box.y + (box.height - 1) / 2), diameter: diameter,
            stretch: 0, isVertical: true, isCurrent: true, isShrunk: false)
    }
}

extension Bitmap {
    /// Draws the page-title list into `area`: one title per line, the selection highlighted, and the
    /// timer's `mark` at the end of the current page's row.
    public mutating func drawPageOverview(
        _ overview: PageOverview, titles: [String], in area: Rect, font: BitmapFont, mark: OverviewTimerMark? = nil
    ) {
        let rows = overview.rows(
            titles: titles, in: area, font: font, markedPage: mark?.page, markWidth: mark?.width ?? 0)
        drawPageOverview(overview, rows: rows, in: area, mark: mark) {
            $0.drawText($1, at: $2, font: font, ink: $3)
        }
    }

    /// Draws the page-title list into `area` through `fonts` (titles in other scripts).
    public mutating func drawPageOverview(
        _ overview: PageOverview, titles: [String], in area: Rect, fonts: FontChain, mark: OverviewTimerMark? = nil
    ) {
        let rows = overview.rows(
            titles: titles, in: area, fonts: fonts, markedPage: mark?.page, markWidth: mark?.width ?? 0)
        drawPageOverview(overview, rows: rows, in: area, mark: mark) {
            $0.drawText($1, at: $2, fonts: fonts, ink: $3)
        }
    }

    private mutating func drawPageOverview(
        _ overview: PageOverview, rows: [OverviewRow], in area: Rect, mark: OverviewTimerMark?,
        draw: (inout Bitmap, String, Point, Ink) -> Int
    ) {
        let saved = clip
        clip = area.intersection(saved)
        fillRect(area, ink: .off)
        for row in rows {
            let selected = row.page == overview.selection
            if selected { fillRect(row.box) }
            _ = draw(&self, row.text, row.ink.origin, selected ? .off : .on)
            // The timer's dot, dark on the highlight as the indicator's are on the plate.
            if let mark, mark.page == row.page {
                drawTimerDot(mark.dot(in: row.box), look: mark.look, image: nil, ink: selected ? .off : .on)
            }
        }
        clip = saved
    }
}
