import PagerGraphics

// A frame byte budget: the caller weighs an update before it goes (and a slide's frame is drawn
// less far on when it costs too much), and a frame that would still take the bus longer than a
// detent may wait goes in two (or more) parts, its windows in order, the rest in the next
// update. RAM is known throughout, so the next update sends exactly what the first left out.

extension SSD1306Driver {
    /// The bytes `update(to:movedUpBy:)` would put on the bus for `frame` (address bytes
    /// counted, as `DisplayUpdatePlanner.cost` counts them), sending nothing: a caller with a
    /// byte budget picks the frame that fits.
    public mutating func plannedCost(of frame: Bitmap, movedUpBy rows: Int) -> Int {
        let picture = fitted(frame)
        if let cost = planUpdate(to: picture, movedUpBy: rows) {
            isPlanCurrent = true
            return cost
        }
        let whole = DisplayWindow(columns: 0..<panel.width, pages: 0..<panel.pageCount)
        return DisplayUpdatePlanner.cost(of: whole, controller: panel.controller) + 3
    }

    /// Sends the update the last `plannedCost(of:movedUpBy:)` weighed, when nothing has been
    /// planned or sent since: the frame is not planned twice. Returns false, sending nothing, when
    /// there is no such plan (RAM was unknown, or something else went since).
    public mutating func writePlannedUpdate() throws(Interface.Failure) -> Bool {
        guard isPlanCurrent else { return false }
        try writePlan()
        return true
    }

    /// Brings the glass towards `frame` as `update(to:movedUpBy:)` does, putting at most `budget`
    /// bytes on the bus (address bytes counted, as `DisplayUpdatePlanner.cost` counts them): the
    /// windows in order while they fit, a window of several pages taken a page at a time, the
    /// first always. Returns whether the whole frame went; when not, the glass shows the windows
    /// sent over what it showed, and the next update sends the rest. A whole frame (RAM unknown)
    /// goes whole.
    @discardableResult
    public mutating func update(to frame: Bitmap, movedUpBy rows: Int, byteBudget budget: Int) throws(Interface.Failure)
        -> Bool
    {
        let picture = fitted(frame)
        isPlanCurrent = false
        guard let cost = planUpdate(to: picture, movedUpBy: rows) else {
            try update(wholeFrame: picture)
            return true
        }
        guard cost > budget, let ram else {
            try writePlan()
            return true
        }
        splitWindowsIntoPages()
        // The start line rides in the first window's commands.
        var spent = displayStartLine == plan.line ? 0 : 1
        var sent = 0
        for window in plan.windows {
            let windowCost = DisplayUpdatePlanner.cost(of: window, controller: panel.controller)
            if sent > 0, spent + windowCost > budget { break }
            spent += windowCost
            sent += 1
        }
        guard sent < plan.windows.count else {
            try writePlan()
            return true
        }
        // What the windows left out cover stays as RAM holds it, pages RAM did not know unknown.
        let width = panel.width
        let ramPages = panel.controller.ramPages
        plan.image.withUnsafeMutablePageBytes { image in
            ram.bytes.withUnsafeBufferPointer { ram in
                for window in plan.windows[sent...] {
                    for page in window.pages.clamped(to: 0..<ramPages) {
                        for x in window.columns.clamped(to: 0..<width) {
                            image[page * width + x] = ram[page * width + x]
                        }
                    }
                }
            }
        }
        plan.windows.removeLast(plan.windows.count - sent)
        plan.pages &= knownPages
        try writePlan()
        return false
    }

    /// `plan.windows` with every window of several pages made one window a page, in page order.
    private mutating func splitWindowsIntoPages() {
        guard plan.windows.contains(where: { $0.pages.count > 1 }) else { return }
        scratch.whole.removeAll(keepingCapacity: true)
        for window in plan.windows {
            for page in window.pages {
                scratch.whole.append(DisplayWindow(columns: window.columns, pages: page..<(page + 1)))
            }
        }
        swap(&plan.windows, &scratch.whole)
    }
}
