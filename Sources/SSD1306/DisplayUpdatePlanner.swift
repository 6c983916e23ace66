import PagerGraphics

/// A rectangle of the glass in whole pages: the unit a partial update sends.
public struct DisplayWindow: Hashable, Sendable {
    /// Glass columns.
    public var columns: Range<Int>
    /// 8-row pages.
    public var pages: Range<Int>

    /// A window.
    public init(columns: Range<Int>, pages: Range<Int>) {
        self.columns = columns
        self.pages = pages
    }

    /// Display data bytes it carries.
    public var byteCount: Int { columns.count * pages.count }
}

/// Chooses what to send when a frame changes: the changed column spans of each page, merged
/// where one larger window costs fewer bytes than two.
///
/// Costs are bytes on the wire, counting each transaction's address byte:
///
///     SSD1306 window (any pages):  (addr + 00h 21h s e 22h s e) + (addr + 40h + data)  = 10 + data
///     SH1106, per page:            (addr + 00h B0h+p 0xh 1xh)   + (addr + 40h + data)  =  7 + data
///
/// Any choice is correct, since bytes that did not change are resent with the value they
/// already hold; the property test checks that the glass equals the frame after any sequence.
package enum DisplayUpdatePlanner {
    /// Bytes on the wire for one window, address bytes included.
    package static func cost(of window: DisplayWindow, controller: SSD1306Controller) -> Int {
        controller.hasHorizontalAddressing
            ? 10 + window.byteCount : window.pages.count * (7 + window.columns.count)
    }

    /// Bytes a window costs beyond its data: the gap two spans may bridge for free or better.
    static func overhead(_ controller: SSD1306Controller) -> Int {
        controller.hasHorizontalAddressing ? 10 : 7
    }

    /// The windows that bring RAM from `old` to `new` (same size); empty when nothing changed.
    package static func windows(from old: Bitmap, to new: Bitmap, controller: SSD1306Controller) -> [DisplayWindow] {
        windows(
            from: old, to: new, controller: controller,
            whole: [DisplayWindow(columns: 0..<new.width, pages: 0..<new.pageCount)])
    }

    /// The windows that bring RAM from `old` to `new` (same size), or `whole` when that costs no more;
    /// `whole` must cover every byte that differs (the pages the glass shows).
    package static func windows(
        from old: Bitmap, to new: Bitmap, controller: SSD1306Controller, whole: [DisplayWindow]
    ) -> [DisplayWindow] {
        var windows: [DisplayWindow] = []
        self.windows(from: old, to: new, controller: controller, whole: whole, into: &windows)
        return windows
    }

    /// The windows `windows(from:to:controller:whole:)` chooses, into `windows`, whose storage is
    /// reused: the driver plans every frame in the same arrays.
    ///
    /// With a `costLimit`, the search stops once the changed spans alone cost more (every window
    /// covers its spans whole, so no choice can cost less), and `whole` stands in: a plan that
    /// loses to one costing `costLimit` is not worked out in full.
    package static func windows(
        from old: Bitmap, to new: Bitmap, controller: SSD1306Controller, whole: [DisplayWindow],
        into windows: inout [DisplayWindow], costLimit: Int = .max
    ) {
        windows.removeAll(keepingCapacity: true)
        guard old.size == new.size else {
            windows.append(contentsOf: whole)
            return
        }
        let overhead = overhead(controller)
        var spanBytes = 0
        for page in 0..<new.pageCount {
            let finished = forEachChangedSpan(old, new, page: page, bridging: overhead) { span in
                spanBytes += span.count
                if spanBytes + overhead > costLimit { return false }
                let alone = DisplayWindow(columns: span, pages: page..<(page + 1))
                guard controller.hasHorizontalAddressing,
                    let (index, merged) = bestMerge(alone, into: windows, controller)
                else {
                    windows.append(alone)
                    return true
                }
                windows[index] = merged
                return true
            }
            guard finished else {
                windows.removeAll(keepingCapacity: true)
                windows.append(contentsOf: whole)
                return
            }
        }
        if controller.hasHorizontalAddressing, windows != whole,
            windows.reduce(0, { $0 + cost(of: $1, controller: controller) })
                >= whole.reduce(0, { $0 + cost(of: $1, controller: controller) })
        {
            windows.removeAll(keepingCapacity: true)
            windows.append(contentsOf: whole)
        }
    }

    /// Calls `body` with each column span of `page` whose bytes differ, joined across gaps of at
    /// most `bridging` bytes, left to right, without an array. Stops when `body` returns false;
    /// returns false then, true when every span went.
    @discardableResult
    static func forEachChangedSpan(
        _ old: Bitmap, _ new: Bitmap, page: Int, bridging: Int, _ body: (Range<Int>) -> Bool
    ) -> Bool {
        guard page >= 0, page < old.pageCount, page < new.pageCount else { return true }
        let before = page * old.width
        let after = page * new.width
        var pending: Range<Int>?
        for x in 0..<min(old.width, new.width) where old.bytes[before + x] != new.bytes[after + x] {
            if let span = pending, x - span.upperBound <= bridging {
                pending = span.lowerBound..<(x + 1)
                continue
            }
            if let span = pending, !body(span) { return false }
            pending = x..<(x + 1)
        }
        if let last = pending { return body(last) }
        return true
    }

    /// The window ending just above `span` that absorbs it most cheaply, if that is no dearer than two windows.
    private static func bestMerge(
        _ span: DisplayWindow, into windows: [DisplayWindow], _ controller: SSD1306Controller
    ) -> (Int, DisplayWindow)? {
        var best: (index: Int, window: DisplayWindow, saving: Int)?
        for (index, window) in windows.enumerated() where window.pages.upperBound == span.pages.lowerBound {
            let merged = DisplayWindow(
                columns: min(
                    window.columns.lowerBound, span.columns.lowerBound)..<max(
                        window.columns.upperBound, span.columns.upperBound),
                pages: window.pages.lowerBound..<span.pages.upperBound)
            let saving =
                cost(of: window, controller: controller) + cost(of: span, controller: controller)
                - cost(of: merged, controller: controller)
            if saving >= 0, saving > best?.saving ?? -1 { best = (index, merged, saving) }
        }
        return best.map { ($0.index, $0.window) }
    }
}
