import PagerGraphics

/// One way to bring the glass to a picture: the RAM image, its windows, the start line, their
/// cost. The driver keeps two (`plan`, `alternative`) and plans each frame in their buffers.
struct DisplayPlan {
    var image = Bitmap(width: 0, height: 0)
    var windows: [DisplayWindow] = []
    var line = 0
    var pages: UInt16 = 0
    var cost = 0
}

/// The buffers besides the plans that a frame is planned and written in, kept from frame to
/// frame and reset in place, so that a frame allocates nothing.
struct DisplayUpdateScratch {
    /// What RAM is taken to hold, pages the driver does not know complemented.
    var before = Bitmap(width: 0, height: 0)
    /// The windows of whole rows that cover the pages shown.
    var whole: [DisplayWindow] = []
    /// The RAM image `invalidate()` let go of, for the next whole frame.
    var spare: Bitmap?
    /// The bytes of the transaction being sent.
    var transaction: [UInt8] = []
}
