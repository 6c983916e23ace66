import CrownVocabulary
import PagerGraphics

// What a frame loop keeps from frame to frame (`PagerRenderer.RenderScratch`): the pages'
// drawings, the indicator's strips and dots, the bitmaps a frame is drawn in, reused in place.

extension PagerRenderer {
    /// What a frame loop keeps from one frame to the next so that drawing allocates nothing: the
    /// bitmap a page is drawn in before it is placed, the pages' drawings, and the indicator's
    /// strips as drawn for the indicators seen last.
    public struct RenderScratch: Sendable {
        /// A page is drawn here, then placed in the frame.
        var page = Bitmap(width: 0, height: 0)
        /// What the indicator showed the last time it was drawn.
        var lastIndicator: IndicatorKey?
        /// Strips as drawn for the indicators seen last, to copy while an indicator comes again:
        /// a slide's dot moving on, the plate shown and gone, paging back and forth.
        var strips: [IndicatorStrip] = []
        /// Counts lookups in `strips`, to let the least recently used one go.
        var stripUses = 0
        /// The size and indicator style `strips` were drawn with.
        var stripSize = Size(width: 0, height: 0)
        var stripStyle = PageIndicatorStyle()
        /// Frames the indicator is drawn over, dark and lit, before its strip is kept.
        var darkCheck = Bitmap(width: 0, height: 0)
        var litCheck = Bitmap(width: 0, height: 0)
        /// The strip drawn for the check, traded into `strips` when it passes.
        var drawnStrip = Bitmap(width: 0, height: 0)
        /// The indicator's dots as last laid out.
        var dots: [IndicatorDot] = []
        /// Drawings of the pages that draw alike at every instant, the current page and its two
        /// neighbours at most: a slide places them again instead of drawing them every frame.
        var drawings: [PageDrawing] = []
        /// Counts lookups in `drawings`, to let the least recently used one go.
        var drawingUses = 0

        /// Empty scratch: the first frames allocate what it keeps. It serves one controller's
        /// frames: pages are known by their index and the pager's `contentGeneration`.
        public init() {}

        /// How many page drawings it keeps: a slide's two pages and the page beyond.
        static let keptDrawings = 3

        /// The index in `drawings` of the drawing for `key`, made ready to draw into (and
        /// `isDrawn` false) when there was none: the least recently used one gives way.
        mutating func drawing(for key: PageDrawing.Key) -> Int {
            drawingUses &+= 1
            if let index = drawings.firstIndex(where: { $0.key == key }) {
                drawings[index].lastUse = drawingUses
                return index
            }
            let index: Int
            if drawings.count < Self.keptDrawings {
                drawings.append(PageDrawing(key: key))
                index = drawings.count - 1
            } else {
                index = leastRecentlyUsed(drawings)
                drawings[index].key = key
                drawings[index].isDrawn = false
            }
            drawings[index].lastUse = drawingUses
            return index
        }
    }

    /// How many indicator strips the scratch keeps.
    static let keptStrips = 4

    /// The indicator's strip as drawn for one indicator.
    struct IndicatorStrip: KeptByUse, Sendable {
        var key: IndicatorKey
        var bitmap = Bitmap(width: 0, height: 0)
        var lastUse = 0
    }

    /// A page as drawn into its canvas, kept while the pages stay the same.
    struct PageDrawing: KeptByUse, Sendable {
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
        var lastUse = 0
    }

    /// What the indicator's pixels depend on from frame to frame; the renderer's size and style,
    /// which they depend on too, are kept beside it (`RenderScratch.stripStyle`). Plain values
    /// only, so comparing it every frame costs no reference counting.
    struct IndicatorKey: Hashable, Sendable {
        var pages: Int
        var current: Int
        var stretch: Int
        var decoration: IndicatorDecoration
    }
}

/// Something a scratch keeps a few of, the least recently used giving way to a new one.
protocol KeptByUse {
    /// When it was last used, by a count of uses.
    var lastUse: Int { get }
}

/// The index of the least recently used of `items`; 0 when there are none.
func leastRecentlyUsed<Item: KeptByUse>(_ items: [Item]) -> Int {
    var oldest = 0
    for candidate in items.indices where items[candidate].lastUse < items[oldest].lastUse { oldest = candidate }
    return oldest
}
