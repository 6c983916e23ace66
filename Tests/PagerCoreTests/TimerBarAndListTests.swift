import CrownVocabulary
import PagerCore
import PagerGraphics
import TestSupport
import Testing

/// The timer where the indicator is no row of dots: the position bar of a 16-row strip, and the
/// page-title list (whose dots stand for the selection). Both show what the current dot would.
@Suite struct TimerBarAndListTests {
    static let panel96x16 = Size(width: 96, height: 16)

    @Test(.tags(.golden)) func theBarShowsTheTimerAtZeroMidwayPausedAndFinished() {
        let style = PageIndicatorStyle()
        let renderer = PagerRenderer(size: Self.panel96x16, indicatorStyle: style)
        let looks = TimedPagesTests.looks(size: Self.panel96x16, style: style)
        let (plain, _) = barsController(4, current: 1, size: Self.panel96x16)
        let plainFrame = renderer.render(plain, at: .zero)
        let shape = renderer.indicatorShape(pages: 4, current: 1)
        guard case .positionBar(let bar) = shape else {
            Issue.record("a 16-row strip holds no window of dots for 4 pages: \(shape)")
            return
        }
        for (state, frame) in looks { expectGolden(frame, named: "timer-bar-\(state)-96x16") }
        let strips = looks.map { TimedPagesTests.strip($0.1, renderer) }
        // Four different looks; finished is the plain bar of an untimed pager (on the last page).
        #expect(Set(strips.map { PBM.plain($0) }).count == 4)
        let (last, _) = barsController(4, current: 3, size: Self.panel96x16)
        #expect(strips[3] == TimedPagesTests.strip(renderer.render(last, at: .zero), renderer))
        // At 0% the bar is not the plain bar: its seed pixel is lit at the bottom of the track.
        let plainStrip = TimedPagesTests.strip(plainFrame, renderer)
        #expect(strips[0] != plainStrip)
        let inside = bar.track.insetBy(1)
        let seed = Point(x: inside.x + (inside.width - 1) / 2, y: inside.maxY - 1)
        let zero = looks[0].1
        #expect(zero[seed.x, seed.y] && !plainFrame[seed.x, seed.y])
        // Midway more of the track is lit than at 0%, and paused the track is solid but for a line.
        let zeroLit = strips[0].litPixelCount
        let midwayLit = strips[1].litPixelCount
        #expect(midwayLit > zeroLit)
        let paused = looks[2].1
        let middle = inside.x + (inside.width - 1) / 2
        #expect(paused[inside.x, inside.y] && !paused[middle, inside.y])
        // The thumb still says where the page is: cut dark out of the solid track.
        let thumbLeft = bar.thumb.x
        let thumbRight = bar.thumb.maxX - 1
        let thumbTop = bar.thumb.y
        #expect(!paused[thumbLeft, thumbTop] && !paused[thumbRight, thumbTop])
    }

    @Test(.tags(.golden)) func theBarsLooksDifferOnThePlateToo() {
        let style = PageIndicatorStyle(backgroundStyle: .prominent)
        let renderer = PagerRenderer(size: Self.panel96x16, indicatorStyle: style)
        let looks = TimedPagesTests.looks(size: Self.panel96x16, style: style)
        for (state, frame) in looks where state != "finished" {
            expectGolden(frame, named: "timer-bar-prominent-\(state)-96x16")
        }
        let strips = looks.map { TimedPagesTests.strip($0.1, renderer) }
        #expect(Set(strips.map { PBM.plain($0) }).count == 4)
        // The timer is drawn inside the plate: no look lights or darkens a pixel outside the strip.
        let (plain, _) = barsController(4, current: 1, size: Self.panel96x16, style: style)
        let plainFrame = renderer.render(plain, at: .zero)
        let content = renderer.contentRect
        for (state, frame) in looks {
            let page = frame.cropped(to: content)
            let plainPage = plainFrame.cropped(to: content)
            #expect(page.litPixelCount == plainPage.litPixelCount || state == "finished", "\(state)")
        }
    }

    @Test(.tags(.golden)) func theTitleListMarksTheCurrentPagesRowWithThePausedTimer() {
        for size in TimedPagesTests.sizes {
            let configuration = PagerConfiguration(pageDuration: .seconds(4), timerResumeDelay: .seconds(10))
            var (timed, renderer) = barsController(4, current: 1, size: size, configuration: configuration)
            _ = timed.handle(.pressed(at: .zero))
            _ = timed.advance(to: .ms(900))  // a long press opens the list, and pauses the timer
            #expect(timed.overview != nil && timed.timer.isPaused)
            let look: TimerLook? = timed.currentPageTimerLook(at: .ms(900))
            #expect(look == .paused)
            let frame = renderer.render(timed, at: .ms(900))
            expectGolden(frame, named: "timer-title-list-paused-\(size.width)x\(size.height)")
            // The same list of an untimed pager has no mark: the frames differ only in the current row's end.
            var (plain, _) = barsController(4, current: 1, size: size)
            _ = plain.handle(.pressed(at: .zero))
            _ = plain.advance(to: .ms(900))
            let plainFrame = renderer.render(plain, at: .ms(900))
            #expect(frame != plainFrame)
            let font = renderer.overviewFontThatFits
            let mark = OverviewTimerMark(page: 1, look: .paused, dotDiameter: 5, lineHeight: font.lineHeight)
            let rows = PageOverview(numberOfPages: 4, selection: 1).rows(
                titles: (0..<4).map { BarsPage(index: $0).title }, in: renderer.contentRect, font: font)
            let markedRow = rows.first { $0.page == 1 }
            let box = markedRow?.box ?? Rect(x: 0, y: 0, width: 0, height: 0)
            let dot = mark.dot(in: box)
            #expect(frame.cropped(to: dot.bounds) != plainFrame.cropped(to: dot.bounds))
            #expect(box.contains(Point(x: dot.bounds.x, y: dot.bounds.y)))
            #expect(box.contains(Point(x: dot.bounds.maxX - 1, y: dot.bounds.maxY - 1)))
        }
    }

    /// The list's mark in each look, drawn as the renderer draws it (the list is open only after a
    /// long press, which pauses the timer; running looks are drawn directly).
    @Test(.tags(.golden)) func theListMarkAtZeroMidwayAndPausedLooksLikeTheDot() {
        let renderer = PagerRenderer(size: Size(width: 128, height: 64), indicatorStyle: PageIndicatorStyle())
        let font = renderer.overviewFontThatFits
        let titles = ["Clock", "A very long title that runs on", "Disk", "Network"]
        let looks: [(String, TimerLook)] = [
            ("0-percent", .running(step: 0, steps: 3)), ("midway", .running(step: 1, steps: 3)), ("paused", .paused),
        ]
        var marks: [Bitmap] = []
        for (name, look) in looks {
            // The timed page is the selected row here, so the mark is cut dark out of the highlight.
            for selection in [1, 2] {
                var frame = Bitmap(width: 128, height: 64)
                let mark = OverviewTimerMark(page: 1, look: look, dotDiameter: 5, lineHeight: font.lineHeight)
                frame.drawPageOverview(
                    PageOverview(numberOfPages: 4, selection: selection), titles: titles, in: renderer.contentRect,
                    font: font, mark: mark)
                expectGolden(frame, named: "timer-list-mark-\(name)-\(selection == 1 ? "selected" : "plain")-128x64")
                marks.append(frame)
            }
        }
        #expect(Set(marks.map { PBM.plain($0) }).count == 6)
        // The long title is cut shorter on the marked row, so the mark never covers a glyph.
        let rows = PageOverview(numberOfPages: 4, selection: 2).rows(
            titles: titles, in: renderer.contentRect, font: font, markedPage: 1, markWidth: 7)
        let unmarked = PageOverview(numberOfPages: 4, selection: 2).rows(
            titles: titles, in: renderer.contentRect, font: font)
        let marked = rows[1].ink
        let mark = OverviewTimerMark(page: 1, look: .paused, dotDiameter: 5, lineHeight: font.lineHeight)
        #expect(marked.maxX <= mark.dot(in: rows[1].box).bounds.x)
        #expect(rows[1].text.count < unmarked[1].text.count)
    }
}
