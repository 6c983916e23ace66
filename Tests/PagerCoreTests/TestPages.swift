import CrownVocabulary
import PagerCore
import PagerGraphics

/// A page that needs no font: a frame and its index drawn as a row of bars, so goldens show which page is where.
/// `extraHeight` makes it taller than the screen (stripes every 8 rows show the scroll);
/// `hasPressAction` gives it an action of its own, `hasHoldAction` one on a long press.
struct BarsPage: PageContent {
    var index: Int
    var extraHeight = 0
    var hasPressAction = false
    var hasHoldAction = false
    var duration: PageDuration = .automatic
    var title: String { "Page \(index)" }

    func contentHeight(in viewport: Size) -> Int { viewport.height + extraHeight }

    func draw(into canvas: inout Bitmap, at instant: Timestamp) {
        // A tall page keeps the "more" gutter free, as PageContent asks.
        var frame = canvas.bounds
        if extraHeight > 0 { frame.width -= PagerRenderer.moreMarkGutter }
        canvas.strokeRoundedRect(frame.insetBy(1), radius: 4)
        for bar in 0...min(index, 15) {
            canvas.fillRect(Rect(x: 6 + bar * 6, y: 6, width: 4, height: canvas.height - 12))
        }
        if extraHeight > 0 {
            for y in stride(from: 4, to: canvas.height, by: 8) { canvas.drawHorizontalLine(x: 100, y: y, length: 12) }
        }
    }
}

func barsPager(_ count: Int, current: Int = 0, wraps: Bool = false) -> PageStack<BarsPage> {
    PageStack(
        pages: (0..<count).map { BarsPage(index: $0) }, currentPage: current,
        configuration: PagerConfiguration(wrapsAround: wraps))
}

/// A controller over `count` bars pages on a panel of `size`, with the renderer that draws it.
func barsController(
    _ count: Int, current: Int = 0, size: Size = Size(width: 128, height: 64), tall: Set<Int> = [],
    configuration: PagerConfiguration = PagerConfiguration(), crown: CrownConfiguration = CrownConfiguration(),
    style: PageIndicatorStyle = PageIndicatorStyle()
) -> (PageNavigator<BarsPage>, PagerRenderer) {
    let renderer = PagerRenderer(size: size, indicatorStyle: style)
    let pages = (0..<count).map { BarsPage(index: $0, extraHeight: tall.contains($0) ? size.height : 0) }
    let controller = PageNavigator(
        pages: pages, currentPage: current, configuration: configuration, crown: crown, style: style,
        viewport: renderer.contentRect.size)
    return (controller, renderer)
}

extension PageNavigator {
    /// Feeds a detent at `ms` milliseconds.
    @discardableResult
    mutating func turn(_ detents: Int, at ms: Int64) -> [PagerEvent] {
        _ = advance(to: .ms(ms))
        return handle(.rotated(detents: detents, at: .ms(ms)))
    }

    /// A short press at `ms` (released 50 ms later).
    @discardableResult
    mutating func press(at ms: Int64) -> [PagerEvent] {
        _ = handle(.pressed(at: .ms(ms)))
        return handle(.released(at: .ms(ms + 50)))
    }
}

extension Timestamp {
    static func ms(_ value: Int64) -> Timestamp { .milliseconds(value) }
}
