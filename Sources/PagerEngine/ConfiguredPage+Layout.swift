import PagerCore
import PagerGraphics

extension ConfiguredPage {
    /// The chain one line of a clock or a gauge draws through in `face`: the face's font (the
    /// page's for the body), then only the fonts of the page's chain that `text` needs, so a line
    /// is only as tall as the fonts in use. Nil when the page draws with misc-fixed alone.
    func chain(for face: PageLayout.Face, text: String) -> FontChain? {
        guard let chain else { return nil }
        let (first, rest) = Self.lineFonts(face, chain)
        // The fonts the text needs, a bit each, counted from the first of `rest`.
        var used = 0
        for scalar in text.unicodeScalars where first.glyph(for: scalar) == nil && !BitmapFont.drawsNothing(scalar) {
            if let index = rest.firstIndex(where: { $0.glyph(for: scalar) != nil }) {
                used |= 1 << (index - rest.startIndex)
            }
        }
        // Made with the page (a clock, a gauge): no allocation. Otherwise made here.
        let faceIndex: Int
        switch face {
        case .large: faceIndex = 0
        case .body: faceIndex = 1
        case .small: faceIndex = 2
        }
        let index = faceIndex * Self.subsetsPerFace + used
        if used < Self.subsetsPerFace, index < lineChains.count { return lineChains[index] }
        return FontChain(
            first, fallbacks: rest.indices.filter { used & (1 << ($0 - rest.startIndex)) != 0 }.map { rest[$0] })
    }

    /// The height of `text` as one line in `face`.
    func lineHeight(of face: PageLayout.Face, _ text: String) -> Int {
        chain(for: face, text: text)?.lineHeight ?? face.lineHeight
    }

    /// The title line, the rule under it and where the body starts.
    struct Header {
        var title: PageLayout.Text?
        var rule: Rect?
        var bottom: Int
    }

    /// The width of `text` in `face` (the body through the fallback glyphs when the page has them).
    func measure(_ text: String, face: PageLayout.Face = .body) -> Int {
        // Every chain of the page picks the same font for a character, so widths agree.
        if let chain = face == .body ? chain : chain(for: face, text: text) { return chain.width(of: text) }
        return face.width(of: text)
    }

    /// `text` cut with an ellipsis to fit `width` in `face`; whole when it fits.
    func fit(_ text: String, width: Int, face: PageLayout.Face = .body) -> String {
        if let chain = face == .body ? chain : chain(for: face, text: text) {
            return chain.fitting(text, width: width)
        }
        return face.font.fitting(text, width: width)
    }

    /// The title and its rule, unless the screen is short and the body a clock, a gauge or a
    /// picture taller than the room under the title: that takes the whole screen, and the
    /// indicator already says which page it is.
    func header(width: Int, viewport: Size) -> Header {
        let compact = viewport.height < 48
        if compact && (isSingleScreenGraphic || imageHeight > viewport.height - headerHeight) {
            return Header(title: nil, rule: nil, bottom: 0)
        }
        let shown = fit(title, width: width)
        let shownWidth = measure(shown)
        // Over a clock or a gauge, the title is as tall as its own fonts; over lines, as theirs.
        let height = isSingleScreenGraphic ? lineHeight(of: .body, shown) : lineHeight
        // Placed alone, not through a layout's array: the header is drawn every frame.
        let title = PageLayout.text(
            shown, in: Rect(x: 0, y: 0, width: width, height: height), face: .body, width: shownWidth,
            alignment: .leading)
        let rule = Rect(x: 0, y: height, width: min(width, shownWidth), height: 1)
        return Header(title: title, rule: rule, bottom: height + 2)
    }

    /// Where everything on the page goes in a canvas of `size` (the content area's width, the
    /// page's height) when the screen shows `viewport`: what `draw(into:viewport:at:)` draws.
    package func layout(in size: Size, viewport: Size) -> PageLayout {
        var layout = PageLayout(size: size)
        // Large text fills the page alone, in fonts no face has: `largeText(_:in:)` places it.
        // (Checked here, not in `header`, which every text and clock frame asks.)
        if case .large = body { return layout }
        let header = header(width: size.width, viewport: viewport)
        if let title = header.title { layout.texts.append(title) }
        if let rule = header.rule { layout.graphics.append(PageLayout.Graphic(kind: .rule, box: rule)) }
        let area = bodyArea(under: header, size: size)
        switch body {
        case .text, .values, .output:
            let tall = isTall(in: viewport)
            layout.moreGutter = tall ? PagerRenderer.moreMarkGutter : 0
            let width = max(1, size.width - layout.moreGutter)
            var y = area.y
            for line in bodyLines(width: width) where y < size.height {
                layout.add(
                    line, in: Rect(x: 0, y: y, width: width, height: lineHeight), face: .body,
                    width: measure(line), alignment: .leading)
                y += lineHeight
            }
        case .clock:
            if let clock = clockPlacement(in: area) {
                layout.texts.append(clock.time)
                if let date = clock.date { layout.texts.append(date) }
            }
        case .image(let bitmap):
            let picture = Rect(
                x: (size.width - bitmap.width) / 2, y: area.y + (area.height - bitmap.height) / 2,
                width: bitmap.width, height: bitmap.height)
            layout.graphics.append(PageLayout.Graphic(kind: .image, box: picture.intersection(area)))
        case .gauge(_, let text, let isDial):
            if isDial {
                layOutDial(text: text, in: area, into: &layout)
            } else {
                layOutBar(text: text, in: area, into: &layout)
            }
        case .large: break  // returned above
        }
        return layout
    }

    /// Where a clock's time and, under it, its date go: what `layout(in:viewport:)` adds and
    /// `draw(into:viewport:at:)` draws straight, so that a clock's frame allocates nothing.
    struct ClockPlacement {
        var time: PageLayout.Text
        var date: PageLayout.Text?
    }

    /// The body's area under the header in a canvas of `size`.
    func bodyArea(under header: Header, size: Size) -> Rect {
        Rect(x: 0, y: header.bottom, width: size.width, height: max(0, size.height - header.bottom))
    }

    /// The gaps between time and date, the faces for the time and for the date, largest first:
    /// stored once, not array literals a frame would build.
    private static let clockGaps = [2, 0]
    private static let clockTimeFaces: [PageLayout.Face] = [.large, .body, .small]
    private static let clockDateFaces: [PageLayout.Face] = [.body, .small]

    /// The clock's placement in `area`; nil when the body is not a clock.
    ///
    /// The time in the largest face it fits whole, seconds dropped only when it fits in none;
    /// under it, when there is room, the longest date that fits, 6x10 before 5x8. A date that
    /// needs a smaller time face wins over the larger face without a date. Two rows apart where
    /// they fit so, else line under line: a 16-row screen holds two 5x8 lines and no more, and
    /// the blank row at the foot of a 5x8 digit keeps them apart (96x16: 10:09:30 over the date).
    func clockPlacement(in area: Rect) -> ClockPlacement? {
        guard case .clock(let fullTime, let fullDate, let shorterTimes, let shorterDates) = body else { return nil }
        // The forms by index, the full one first: no `[time] + shorterTimes` to build each frame.
        let timeCount = 1 + shorterTimes.count
        let dateCount = fullDate.isEmpty ? 0 : 1 + shorterDates.count
        var timeOnly: (String, PageLayout.Face)?
        for gap in Self.clockGaps {
            for timeIndex in 0..<timeCount {
                let time = timeIndex == 0 ? fullTime : shorterTimes[timeIndex - 1]
                for face in Self.clockTimeFaces
                where measure(time, face: face) <= area.width && lineHeight(of: face, time) <= area.height {
                    if timeOnly == nil { timeOnly = (time, face) }
                    let room = area.height - lineHeight(of: face, time) - gap
                    for dateFace in Self.clockDateFaces {
                        for dateIndex in 0..<dateCount {
                            let date = dateIndex == 0 ? fullDate : shorterDates[dateIndex - 1]
                            if lineHeight(of: dateFace, date) <= room && measure(date, face: dateFace) <= area.width {
                                return placeClock(time: (time, face), date: (date, dateFace), gap: gap, in: area)
                            }
                        }
                    }
                }
            }
        }
        let gap = 2
        if let timeOnly { return placeClock(time: timeOnly, date: nil, gap: gap, in: area) }
        // Nothing fits whole (a panel narrower than any face): the time cut, in the smallest face.
        let last = shorterTimes.last ?? fullTime
        let face = PageLayout.Face.small
        return placeClock(time: (fit(last, width: area.width, face: face), face), date: nil, gap: gap, in: area)
    }

    /// The time, and the date under it, centred in `area` together.
    private func placeClock(
        time: (String, PageLayout.Face), date: (String, PageLayout.Face)?, gap: Int, in area: Rect
    ) -> ClockPlacement {
        let timeHeight = lineHeight(of: time.1, time.0)
        let height = timeHeight + (date.map { gap + lineHeight(of: $0.1, $0.0) } ?? 0)
        let top = area.y + max(0, (area.height - height) / 2)
        let timeText = PageLayout.text(
            time.0, in: Rect(x: area.x, y: top, width: area.width, height: timeHeight), face: time.1,
            width: measure(time.0, face: time.1), alignment: .center)
        guard let date else { return ClockPlacement(time: timeText, date: nil) }
        let dateText = PageLayout.text(
            date.0,
            in: Rect(x: area.x, y: top + timeHeight + gap, width: area.width, height: lineHeight(of: date.1, date.0)),
            face: date.1, width: measure(date.0, face: date.1), alignment: .center)
        return ClockPlacement(time: timeText, date: dateText)
    }

    /// The face for a gauge's text: the first of `faces` it fits whole in with `below` rows to
    /// spare, else the last that leaves them, the text cut; nil when no face leaves them.
    private func gaugeFace(_ text: String, faces: [PageLayout.Face], in area: Rect, below: Int) -> (
        String, PageLayout.Face
    )? {
        let roomy = faces.filter { area.height - lineHeight(of: $0, text) >= below }
        if let face = roomy.first(where: { measure(text, face: $0) <= area.width }) { return (text, face) }
        guard let face = roomy.last else { return nil }
        return (fit(text, width: area.width, face: face), face)
    }

    /// A bar gauge: the number over a bar, both centred; 10x20 where the area is 40 rows or more.
    private func layOutBar(text: String, in area: Rect, into layout: inout PageLayout) {
        let faces: [PageLayout.Face] = area.height >= 40 ? [.large, .body, .small] : [.body, .small]
        let gap = 3
        let thinnest = 3
        guard let (shown, face) = gaugeFace(text, faces: faces, in: area, below: gap + thinnest) else {
            layOutNumberAlone(text, in: area, into: &layout)
            return
        }
        let textHeight = lineHeight(of: face, shown)
        let barHeight = max(thinnest, min(12, area.height - textHeight - gap - 1))
        let top = area.y + max(0, (area.height - textHeight - barHeight - gap) / 2)
        layout.add(
            shown, in: Rect(x: area.x, y: top, width: area.width, height: textHeight), face: face,
            width: measure(shown, face: face), alignment: .center)
        let bar = Rect(x: area.x + 2, y: top + textHeight + gap, width: max(0, area.width - 4), height: barHeight)
        layout.graphics.append(PageLayout.Graphic(kind: .bar, box: bar))
    }

    /// A dial gauge: the upper half of a circle with its needle, the number under its centre.
    private func layOutDial(text: String, in area: Rect, into layout: inout PageLayout) {
        let smallest = 4
        // The number sits 3 rows under the centre; the half circle needs its radius and a row above.
        guard let (shown, face) = gaugeFace(text, faces: [.body, .small], in: area, below: smallest + 4) else {
            layOutNumberAlone(text, in: area, into: &layout)
            return
        }
        let textHeight = lineHeight(of: face, shown)
        let radius = max(smallest, min(area.width / 2 - 2, area.height - textHeight - 4))
        let centre = Point(x: area.x + area.width / 2, y: area.y + radius + 1)
        layout.graphics.append(
            PageLayout.Graphic(
                kind: .dial,
                box: Rect(x: centre.x - radius, y: centre.y - radius, width: 2 * radius + 1, height: radius + 1)))
        layout.add(
            shown, in: Rect(x: area.x, y: centre.y + 3, width: area.width, height: textHeight), face: face,
            width: measure(shown, face: face), alignment: .center)
    }

    /// A gauge with no room for its bar or dial (8 rows: the bottom indicator on a 16-row
    /// panel): the number alone, centred, in the largest face that fits.
    private func layOutNumberAlone(_ text: String, in area: Rect, into layout: inout PageLayout) {
        guard let (shown, face) = gaugeFace(text, faces: [.body, .small], in: area, below: 0) else { return }
        let height = lineHeight(of: face, shown)
        layout.add(
            shown, in: Rect(x: area.x, y: area.y + (area.height - height) / 2, width: area.width, height: height),
            face: face, width: measure(shown, face: face), alignment: .center)
    }
}
