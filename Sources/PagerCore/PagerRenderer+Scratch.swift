import CrownVocabulary
import PagerGraphics

extension PagerRenderer {
    /// What a frame loop keeps from one frame to the next: the bitmap a page is drawn in before it
    /// is placed, the indicator's dots, reused in place so that drawing allocates nothing, and the
    /// drawings of the pages a slide places.
    public struct RenderScratch: Sendable {
        /// A page is drawn here, then placed in the frame.
        var page = Bitmap(width: 0, height: 0)
        /// The indicator's dots as last laid out.
        var dots: [IndicatorDot] = []
        /// Drawings of the pages that draw alike at every instant, the current page and its two
        /// neighbours at most: a slide places them again instead of drawing them every frame.
        /// Kept because they save more than 1% of a frame's bus time: without them a slide frame
        /// costs 185,000 instructions instead of 97,000 (callgrind, `bench-vs-luma.sh --instructions`).
        var drawings: [PageDrawing] = []
        /// Counts lookups in `drawings`, to let the least recently used one go.
        var drawingUses = 0

        /// Empty scratch: the first frames allocate what it keeps. It serves one controller's
        /// frames: pages are known by their index and the pager's `contentGeneration`.
        public init() {}

        /// How many page drawings it keeps: a slide's two pages and the page beyond.
        static let keptDrawings = 3

        /// A page as drawn into its canvas, kept while the pages stay the same.
        struct PageDrawing: Sendable {
            /// Which page, of which pages, in a canvas of which size.
            struct Key: Hashable, Sendable {
                var page: Int
                var generation: Int
                var canvas: Size
                var viewport: Size
            }
            var key: Key
            var bitmap = Bitmap(width: 0, height: 0)
            var isDrawn = false
            /// When it was last looked up, by `drawingUses`.
            var lastUse = 0
        }

        /// The index in `drawings` of the drawing for `key`, made ready to draw into (and
        /// `isDrawn` false) when there was none: the least recently used one gives way.
        mutating func drawing(for key: PageDrawing.Key) -> Int {
            drawingUses &+= 1
            let index: Int
            if let found = drawings.firstIndex(where: { $0.key == key }) {
                index = found
            } else if drawings.count < Self.keptDrawings {
                drawings.append(PageDrawing(key: key))
                index = drawings.count - 1
            } else {
                index = drawings.indices.min { drawings[$0].lastUse < drawings[$1].lastUse } ?? 0
                drawings[index].key = key
                drawings[index].isDrawn = false
            }
            drawings[index].lastUse = drawingUses
            return index
        }
    }
}
