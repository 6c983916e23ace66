import PagerCore
import PagerGraphics

/// A page that needs no font: a frame and its index drawn as a row of bars, so goldens show which page is where.
struct BarsPage: PageContent {
    var index: Int
    var title: String { "Page \(index)" }

    func draw(into canvas: inout Bitmap, at instant: Timestamp) {
        canvas.strokeRoundedRect(canvas.bounds.insetBy(1), radius: 4)
        for bar in 0...index {
            canvas.fillRect(Rect(x: 6 + bar * 6, y: 6, width: 4, height: canvas.height - 12))
        }
    }
}

func barsPager(_ count: Int, current: Int = 0, wraps: Bool = false) -> Pager<BarsPage> {
    Pager(
        pages: (0..<count).map { BarsPage(index: $0) }, currentPage: current,
        configuration: PagerConfiguration(wrapsAround: wraps))
}

extension Timestamp {
    static func ms(_ value: Int64) -> Timestamp { .milliseconds(value) }
}
