import CrownVocabulary
import PagerGraphics

extension PagerRenderer {
    /// The buffers a frame loop lends the renderer from one frame to the next, reused in place so
    /// that drawing allocates nothing: the bitmap a page is drawn in before it is placed, and the
    /// indicator's dots. It keeps no drawings: every frame draws its pages and indicator anew.
    public struct RenderScratch: Sendable {
        /// A page is drawn here, then placed in the frame.
        var page = Bitmap(width: 0, height: 0)
        /// The indicator's dots as last laid out.
        var dots: [IndicatorDot] = []

        /// Empty buffers: the first frame sizes them.
        public init() {}
    }
}
