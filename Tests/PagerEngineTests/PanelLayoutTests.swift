import CrownVocabulary
import PagerCore
import PagerEngine
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306
import TestSupport
import Testing

/// Every page kind laid out on every panel, with values long enough to overflow: the test fails
/// on any text whose glyphs leave its box, any box outside the page, any lit pixel the layout
/// does not account for, and any page content under the indicator.
@Suite struct PanelLayoutTests {
    static let sides: [CrownSide] = [.right, .left, .bottom]

    /// 23:59:58 on Wednesday 30 September 2099: the longest day and month names in one date.
    static let farOff = ClockReading(year: 2099, month: 9, day: 30, hour: 23, minute: 59, second: 58, weekday: 3)

    static func clock(_ time: String, _ date: String) -> PageSpec {
        PageSpec(
            title: "Clock in the kitchen, by the window",
            kind: .clock(time: try! ClockFormat.parse(time).get(), date: try! ClockFormat.parse(date).get()))
    }

    /// One page of each kind, every value as long as it plausibly gets.
    static func pages() -> [(String, ConfiguredPage)] {
        let book = PageBook(specs: [
            clock("%H:%M:%S", "%A %e %B %Y"), clock("%I:%M:%S %p", "%a %e %b %Y"), clock("%H:%M", ""),
        ])
        var picture = Bitmap(width: 200, height: 90)
        picture.fillRect(Rect(x: 0, y: 0, width: 200, height: 90))
        var pin = Bitmap(width: 7, height: 7)
        pin.fillRect(Rect(x: 1, y: 1, width: 5, height: 5))
        let longTitle = "A title far longer than any small panel is wide"
        return [
            ("clock-long-date", book.page(0, clock: farOff)),
            ("clock-12-hour", book.page(1, clock: farOff)),
            ("clock-no-date", book.page(2, clock: farOff)),
            (
                "text",
                ConfiguredPage(
                    title: longTitle,
                    body: .text(
                        "Supercalifragilisticexpialidocious-and-then-some words wrap, and so does a line with "
                            + "ordinary words that runs on past the edge of the panel."))
            ),
            (
                "system",
                ConfiguredPage(
                    title: "System status of this machine",
                    body: .values([
                        ValueLine(label: "host", value: "raspberrypi-in-the-garden-shed.local"),
                        ValueLine(label: "ip", value: "fe80::dea6:32ff:fe12:3456%wlan0"),
                        ValueLine(label: "load", value: "12.42 10.30 9.25"),
                        ValueLine(label: "mem", value: "3.8 GiB of 7.8 GiB free (48.7%)"),
                        ValueLine(label: "up", value: "1234 days 23:59"),
                        ValueLine(label: "cpu", value: "-12.5\u{B0}C"),
                    ]))
            ),
            (
                "command",
                ConfiguredPage(
                    title: "journalctl --unit crownpager --lines 5",
                    body: .output(
                        lines: [
                            "Nov 21 10:09:30 crownpi crownpager[1234]: started on /dev/i2c-1 at 0x3C",
                            "", "a_single_token_longer_than_the_panel_is_wide_by_far",
                        ], status: "timed out after 2s: killed with SIGTERM"))
            ),
            (
                "file",
                ConfiguredPage(
                    title: "/sys/class/thermal/thermal_zone0/temp",
                    body: .output(
                        lines: (1...12).map { "line \($0): " + String(repeating: "x", count: $0 * 3) }, status: nil))
            ),
            ("image-small", ConfiguredPage(title: longTitle, body: .image(pin))),
            ("image-large", ConfiguredPage(title: "Picture", body: .image(picture))),
            (
                "gauge-bar",
                ConfiguredPage(title: longTitle, body: .gauge(fraction: -0.5, text: "-123456.78 kB/s", isDial: false))
            ),
            ("gauge-bar-full", ConfiguredPage(title: "Disk", body: .gauge(fraction: 7, text: "100.0%", isDial: false))),
            (
                "gauge-dial",
                ConfiguredPage(title: longTitle, body: .gauge(fraction: 1.5, text: "-1234567.89\u{B0}C", isDial: true))
            ),
            ("gauge-unknown", ConfiguredPage(title: "CPU", body: .gauge(fraction: nil, text: "-", isDial: true))),
        ] + koreanPages()
    }

    /// Korean in a title, a date and a gauge's unit, drawn through Unifont's 16-row glyphs (the
    /// checked-in subset) as the engine draws them once the shell has answered.
    static func koreanPages() -> [(String, ConfiguredPage)] {
        let bytes = try! FallbackGlyphTests.subset()
        var cache = HexGlyphCache(index: try! HexFontIndex(bytes: bytes))
        cache.cover("페이지 컨트롤 년월일 온도 시계", from: HexBytes(bytes))
        let glyphs = cache.font
        var book = PageBook(specs: [clock("%H:%M:%S", "%Y년 %m월 %d일 %A")])
        book.glyphs = glyphs
        return [
            (
                "korean-text",
                ConfiguredPage(
                    title: "페이지 컨트롤 페이지 컨트롤", body: .text(FallbackGlyphTests.body), fallbackGlyphs: glyphs)
            ),
            ("korean-date", book.page(0, clock: farOff)),
            (
                "korean-gauge-bar",
                ConfiguredPage(
                    title: "온도", body: .gauge(fraction: 0.4, text: "48.3 도", isDial: false), fallbackGlyphs: glyphs)
            ),
            (
                "korean-gauge-dial",
                ConfiguredPage(
                    title: "시계", body: .gauge(fraction: 0.4, text: "-1234.5 도", isDial: true), fallbackGlyphs: glyphs)
            ),
        ]
    }

    @Test(arguments: SSD1306Panel.all, sides)
    func everyPageKindFitsItsBoxes(panel: SSD1306Panel, side: CrownSide) {
        let renderer = PagerRenderer(size: panel.size, indicatorStyle: PageIndicatorStyle(crownSide: side))
        let content = renderer.contentRect
        #expect(content.intersection(renderer.indicatorColumn).isEmpty)
        #expect(content.intersection(Rect(origin: Point(x: 0, y: 0), size: panel.size)) == content)
        for (name, page) in Self.pages() {
            let prepared = page.preparingLines(width: content.width)
            let height = prepared.contentHeight(in: content.size)
            let layout = prepared.layout(in: Size(width: content.width, height: height), viewport: content.size)
            let page = Rect(x: 0, y: 0, width: content.width, height: height)
            for text in layout.texts {
                #expect(
                    text.ink.intersection(text.box) == text.ink,
                    "\(name) on \(panel.name): '\(text.text)' leaves its box")
                #expect(
                    text.box.intersection(page) == text.box, "\(name) on \(panel.name): '\(text.text)' leaves the page")
                // A line is as tall as its face, or taller where it draws through Unifont's glyphs.
                #expect(text.ink.height == text.face.font.lineHeight || text.face == .body || name.hasPrefix("korean"))
            }
            for (index, text) in layout.texts.enumerated() {
                for other in layout.texts[(index + 1)...] {
                    #expect(
                        text.ink.intersection(other.ink).isEmpty,
                        "\(name) on \(panel.name): '\(text.text)' on '\(other.text)'")
                }
                for graphic in layout.graphics {
                    #expect(
                        text.ink.intersection(graphic.box).isEmpty,
                        "\(name) on \(panel.name): '\(text.text)' on a \(graphic.kind)")
                }
            }
            for graphic in layout.graphics {
                #expect(
                    graphic.box.intersection(page) == graphic.box,
                    "\(name) on \(panel.name): a \(graphic.kind) leaves the page")
            }
            // What is drawn is what the layout says: no lit pixel outside its boxes.
            var canvas = Bitmap(size: Size(width: content.width, height: height))
            prepared.draw(into: &canvas, viewport: content.size, at: .zero)
            let boxes = layout.texts.map(\.ink) + layout.graphics.map(\.box)
            let stray = Self.litPixels(canvas).filter { point in !boxes.contains { $0.contains(point) } }
            #expect(
                stray.isEmpty,
                "\(name) on \(panel.name): \(stray.count) lit pixels outside the layout, first \(String(describing: stray.first))"
            )
            // A page taller than the screen shows the "more" mark in the gutter its lines keep
            // free: at every scroll position that leaves lines below, it covers no text.
            if height > content.height {
                #expect(layout.moreGutter == PagerRenderer.moreMarkGutter)
                for scrolled in 0..<(height - content.height) {
                    guard let mark = renderer.moreMark(pageHeight: height, scrolled: scrolled) else {
                        Issue.record("\(name) on \(panel.name): more lines, no mark")
                        break
                    }
                    #expect(mark.intersection(content) == mark)
                    let onPage = mark.offsetBy(dx: -content.x, dy: scrolled - content.y)
                    for text in layout.texts where !text.ink.intersection(onPage).isEmpty {
                        Issue.record("\(name) on \(panel.name): the more mark covers '\(text.text)'")
                    }
                }
                #expect(renderer.moreMark(pageHeight: height, scrolled: height - content.height) == nil)
            }
        }
    }

    @Test(arguments: SSD1306Panel.all, sides)
    func theIndicatorStaysInItsStripAndTheTitleListInTheContent(panel: SSD1306Panel, side: CrownSide) {
        let renderer = PagerRenderer(size: panel.size, indicatorStyle: PageIndicatorStyle(crownSide: side))
        let strip = renderer.indicatorColumn
        for pages in [1, 2, 3, 5, 6, 12, 40] {
            for current in Set([0, pages / 2, pages - 1]) {
                for stretch in [0, renderer.indicatorStyle.pitch] {
                    let shape = renderer.indicatorShape(pages: pages, current: current, stretch: stretch)
                    #expect(!shape.bounds.isEmpty)
                    for bounds in shape.bounds {
                        #expect(bounds.intersection(strip) == bounds, "\(pages) pages on \(panel.name) \(side)")
                    }
                }
            }
        }
        let titles = (1...40).map { "Page \($0) with a title much too long for the list" }
        let content = renderer.contentRect
        for selection in [0, 20, 39] {
            for row in PageOverview(numberOfPages: 40, selection: selection).rows(
                titles: titles, in: content, font: renderer.overviewFontThatFits)
            {
                #expect(row.ink.intersection(row.box) == row.ink, "'\(row.text)' on \(panel.name)")
                #expect(row.box.intersection(content) == row.box)
                #expect(row.text.hasSuffix(renderer.overviewFontThatFits.ellipsis))
            }
        }
    }

    /// Apple's dots where a window of at least three fits; the position bar on a 16-row strip.
    @Test func thePositionBarStandsInWhereTooFewDotsFit() {
        let short = PagerRenderer(size: SSD1306Panel.ssd1306_96x16.size)
        let tall = PagerRenderer(size: SSD1306Panel.ssd1306_72x40.size)
        guard case .positionBar(let first) = short.indicatorShape(pages: 6, current: 0),
            case .positionBar(let last) = short.indicatorShape(pages: 6, current: 5),
            case .positionBar(let middle) = short.indicatorShape(pages: 6, current: 2)
        else {
            Issue.record("6 pages on 96x16 draw dots")
            return
        }
        #expect(first.thumb.y == first.track.y + 1)
        #expect(last.thumb.maxY == last.track.maxY - 1)
        #expect(first.thumb.y < middle.thumb.y && middle.thumb.y < last.thumb.y)
        // Two pages fit as dots, so Apple's rules hold.
        guard case .dots(let two) = short.indicatorShape(pages: 2, current: 1) else {
            Issue.record("2 pages on 96x16 draw a bar")
            return
        }
        #expect(two.count == 2 && two[1].isCurrent)
        guard case .dots = tall.indicatorShape(pages: 6, current: 2) else {
            Issue.record("6 pages on 72x40 draw a bar")
            return
        }
    }

    /// The SH1107's 128-row strip holds a dot for each of 6 pages, and a window of 7 of 40.
    @Test func theTallStripShowsMoreDots() {
        for panel in [SSD1306Panel.sh1107_64x128, .sh1107_128x128] {
            let renderer = PagerRenderer(size: panel.size)
            guard case .dots(let six) = renderer.indicatorShape(pages: 6, current: 2),
                case .dots(let forty) = renderer.indicatorShape(pages: 40, current: 20)
            else {
                Issue.record("\(panel.name) draws a bar")
                continue
            }
            #expect(six.count == 6, "\(panel.name)")
            #expect(forty.count == 7, "\(panel.name)")
        }
    }

    /// A narrow panel shows the clock smaller, never cut, and a shorter date; seconds stay.
    @Test func theClockFallsBackToSmallerFacesAndShorterDates() {
        let book = PageBook(specs: [Self.clock("%H:%M:%S", "%a %e %b %Y")])
        let page = book.page(0, clock: SampleReadings.clock)
        func texts(_ panel: SSD1306Panel) -> [String] {
            let content = PagerRenderer(size: panel.size).contentRect
            return page.layout(in: content.size, viewport: content.size).texts.map(\.text)
        }
        func timeFace(_ panel: SSD1306Panel) -> PageLayout.Face? {
            let content = PagerRenderer(size: panel.size).contentRect
            return page.layout(in: content.size, viewport: content.size).texts.first { $0.text == "10:09:30" }?.face
        }
        #expect(texts(.ssd1306_128x64) == ["Clock in the kitche\u{2026}", "10:09:30", "Sat 21 Nov 2026"])
        #expect(texts(.ssd1306_128x32) == ["10:09:30", "Sat 21 Nov 2026"])
        #expect(texts(.ssd1306_72x40) == ["10:09:30", "Sat 21 Nov"])
        #expect(texts(.ssd1306_64x48) == ["Clock in\u{2026}", "10:09:30", "21 Nov"])
        // 16 rows: the time and the date in 5x8, line under line, rather than the time alone in 6x10.
        #expect(texts(.ssd1306_96x16) == ["10:09:30", "Sat 21 Nov 2026"])
        // The SH1107's tall glass: 56 columns beside the indicator take the 6x10 time, as 64x48 does.
        #expect(texts(.sh1107_64x128) == ["Clock in\u{2026}", "10:09:30", "21 Nov"])
        #expect(texts(.sh1107_128x128) == ["Clock in the kitche\u{2026}", "10:09:30", "Sat 21 Nov 2026"])
        #expect(timeFace(.sh1107_64x128) == .body && timeFace(.sh1107_128x128) == .large)
        #expect(timeFace(.ssd1306_128x64) == .large && timeFace(.ssd1306_128x32) == .large)
        #expect(timeFace(.ssd1306_72x40) == .body && timeFace(.ssd1306_64x48) == .body)
        #expect(timeFace(.ssd1306_96x16) == .small)
        // Only where no face fits the time whole do the seconds go, with their separator.
        let narrow = page.layout(in: Size(width: 32, height: 16), viewport: Size(width: 32, height: 16))
        let narrowTexts = narrow.texts.map { $0.text }
        #expect(narrowTexts == ["10:09", "21 Nov"])
    }

    /// With the bottom indicator a 16-row panel leaves 8 rows: a gauge shows its number alone.
    @Test func aGaugeWithNoRoomForItsBarShowsItsNumber() {
        let renderer = PagerRenderer(
            size: SSD1306Panel.ssd1306_96x16.size, indicatorStyle: PageIndicatorStyle(crownSide: .bottom))
        let content = renderer.contentRect
        #expect(content.height == 8)
        for isDial in [false, true] {
            let page = ConfiguredPage(title: "CPU", body: .gauge(fraction: 0.5, text: "48.3\u{B0}C", isDial: isDial))
            let layout = page.layout(in: content.size, viewport: content.size)
            let texts = layout.texts.map { $0.text }
            #expect(texts == ["48.3\u{B0}C"])
            #expect(layout.texts.first?.face == .small)
            #expect(layout.graphics.isEmpty)
        }
    }

    @Test func secondsGoWithTheirSeparator() throws {
        #expect(try ClockFormat.parse("%H:%M:%S").get().withoutSeconds?.pattern == "%H:%M")
        #expect(try ClockFormat.parse("%I:%M:%S %p").get().withoutSeconds?.pattern == "%I:%M %p")
        #expect(try ClockFormat.parse("%H:%M").get().withoutSeconds == nil)
    }

    static func litPixels(_ bitmap: Bitmap) -> [Point] {
        var points: [Point] = []
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap[x, y] { points.append(Point(x: x, y: y)) }
        }
        return points
    }
}

/// Golden frames of the small-panel layouts, through the session that drives a panel.
@Suite struct PanelGoldenTests {
    static func demoClock() -> ConfiguredPage {
        let spec = PageSpec(
            title: "Clock",
            kind: .clock(
                time: try! ClockFormat.parse("%H:%M:%S").get(), date: try! ClockFormat.parse("%a %e %b %Y").get()))
        return PageBook(specs: [spec]).page(0, clock: SampleReadings.clock)
    }

    static let system = ConfiguredPage(
        title: "System",
        body: .values([
            ValueLine(label: "host", value: "crownpi-in-the-garden-shed"),
            ValueLine(label: "ip", value: "192.168.1.23"),
            ValueLine(label: "load", value: "0.42 0.30 0.25"), ValueLine(label: "mem", value: "70% free"),
            ValueLine(label: "up", value: "3d 4h"),
        ]))

    static func frame(
        _ pages: [ConfiguredPage], current: Int = 0, panel: SSD1306Panel,
        style: PageIndicatorStyle = PageIndicatorStyle()
    ) -> Bitmap {
        let width = PagerRenderer(size: panel.size, indicatorStyle: style).contentRect.width
        let session = PanelPresenter(
            pages: pages.map { $0.preparingLines(width: width) }, currentPage: current, panel: panel,
            indicatorStyle: style)
        return session.frame(at: .zero)
    }

    static let filler = (1...5).map { ConfiguredPage(title: "Page \($0)", body: .text("Page \($0)")) }

    @Test(.tags(.golden)) func clockOn72x40() {
        expectGolden(Self.frame([Self.demoClock()] + Self.filler, panel: .ssd1306_72x40), named: "panel-72x40-clock")
    }

    @Test(.tags(.golden)) func clockWithItsDateOn64x48() {
        expectGolden(Self.frame([Self.demoClock()] + Self.filler, panel: .ssd1306_64x48), named: "panel-64x48-clock")
    }

    @Test(.tags(.golden)) func clockWithItsDateOn96x16() {
        let frame = Self.frame([Self.demoClock()] + Self.filler, panel: .ssd1306_96x16)
        expectGolden(frame, named: "panel-96x16-clock")
    }

    @Test(.tags(.golden)) func positionBarOn96x16() {
        expectGolden(
            Self.frame([Self.demoClock()] + Self.filler, current: 2, panel: .ssd1306_96x16),
            named: "panel-96x16-position-bar")
    }

    @Test(.tags(.golden)) func systemPageWithTheMoreMarkOn128x32() {
        expectGolden(Self.frame([Self.system] + Self.filler, panel: .ssd1306_128x32), named: "panel-128x32-system-more")
    }

    /// One page of each kind (PanelLayoutTests' long values) on each of the SH1107's panels.
    static let sh1107Kinds = [
        "clock-long-date", "text", "system", "command", "file", "image-small", "gauge-bar", "gauge-dial",
    ]

    @Test(.tags(.golden), arguments: [SSD1306Panel.sh1107_64x128, .sh1107_128x128])
    func everyPageKindOnTheSH1107Panels(panel: SSD1306Panel) {
        let pages = PanelLayoutTests.pages()
        for kind in Self.sh1107Kinds {
            guard let page = pages.first(where: { $0.0 == kind })?.1 else {
                Issue.record("no \(kind) page")
                continue
            }
            expectGolden(Self.frame([page] + Self.filler, panel: panel), named: "panel-\(panel.name)-\(kind)")
        }
    }

    @Test(.tags(.golden)) func bottomIndicatorKeepsItsRows() {
        let bottom = PageIndicatorStyle(crownSide: .bottom)
        expectGolden(
            Self.frame([Self.demoClock()] + Self.filler, panel: .ssd1306_128x32, style: bottom),
            named: "panel-128x32-bottom-clock")
        expectGolden(
            Self.frame([Self.system] + Self.filler, panel: .ssd1306_64x48, style: bottom),
            named: "panel-64x48-bottom-system")
    }
}
