import PagerGraphics

// RAM rows the glass does not show (a panel shorter than 64 rows: section 8.7, the start line
// counts modulo 64) are a buffer off the glass. A vertical slide moves the start line and brings
// them into view; when they already hold what comes into view, only the start line and what
// stands still (the indicator) change. After a slide they hold the page it took away; after the
// start, a jump or a new reading they hold nothing useful, and the driver fills them while the
// bus is idle, a RAM page a call, so a detent's frame never waits behind more than one.

extension SSD1306Driver {
    /// Whether the RAM rows off the glass lack what a turn would bring into view: `next` (what
    /// comes in below the glass, its top row first) and `previous` (what comes in above it, its
    /// bottom row last), each going away from the glass until the two meet. What the pager does
    /// not have is nil. Only `columns` count: the pages' columns, not the indicator's,
    /// which a slide rewrites where it stands. False on a 64-row panel, or while the glass is unknown.
    public mutating func offGlassNeedsFill(next: Bitmap?, previous: Bitmap?, columns: Range<Int>) -> Bool {
        planOffGlass(next: next, previous: previous, columns: columns) != nil
    }

    /// Writes one RAM page (or the changed columns of one) of the rows off the glass towards the
    /// neighbouring pages, the page below winning rows both want; returns whether more remains.
    /// The glass does not change. A failed write forgets RAM and the start line.
    @discardableResult
    public mutating func fillOffGlass(next: Bitmap?, previous: Bitmap?, columns: Range<Int>) throws(Interface.Failure)
        -> Bool
    {
        guard let window = planOffGlass(next: next, previous: previous, columns: columns) else { return false }
        do throws(Interface.Failure) {
            try writeWindow(of: plan.image, window)
        } catch {
            invalidateDisplayStartLine()
            throw error
        }
        guard var ram else { return false }
        let width = panel.width
        let page = window.pages.lowerBound
        plan.image.bytes.withUnsafeBufferPointer { image in
            ram.withUnsafeMutablePageBytes { bytes in
                for x in window.columns { bytes[page * width + x] = image[page * width + x] }
            }
        }
        self.ram = ram
        if window.columns.count == width { knownPages |= 1 << UInt8(page) }
        return planOffGlass(next: next, previous: previous, columns: columns) != nil
    }

    /// Builds in `plan.image` what RAM would hold with the neighbours off the glass and returns
    /// the first window of it RAM lacks, within one RAM page; nil when nothing is to be written.
    mutating func planOffGlass(next: Bitmap?, previous: Bitmap?, columns: Range<Int>) -> DisplayWindow? {
        // It builds in the plan's image: a plan weighed before is gone.
        isPlanCurrent = false
        let height = panel.height
        guard height < ramRows, panel.controller.startLineMovesRows, next != nil || previous != nil, let ram,
            let line = displayStartLine,
            isGlassKnown
        else { return nil }
        let width = panel.width
        let allPagesKnown: UInt16 = (1 << UInt16(panel.controller.ramPages)) - 1
        // A slide or scroll just ended leaves what it took away above the glass (or below), and
        // what it did not bring in yet on the other side: that serves as well as a fill would.
        if knownPages == allPagesKnown, holdsNeighbours(ram, next: next, previous: previous, line: line, columns) {
            return nil
        }
        placeOffGlass(next: next, previous: previous, nextWins: true, line: line, ram: ram, columns: columns)
        if knownPages == allPagesKnown, plan.image == ram { return nil }
        // The first RAM page that differs (the glass's own rows are RAM's in the image, so only
        // rows off the glass can), or that RAM does not know: written whole.
        for page in 0..<panel.controller.ramPages {
            guard knownPages & (1 << UInt8(page)) != 0 else {
                return DisplayWindow(columns: 0..<width, pages: page..<(page + 1))
            }
            var first = width
            var last = -1
            plan.image.bytes.withUnsafeBufferPointer { image in
                ram.bytes.withUnsafeBufferPointer { ram in
                    for x in 0..<width where image[page * width + x] != ram[page * width + x] {
                        first = min(first, x)
                        last = x
                    }
                }
            }
            if last >= first { return DisplayWindow(columns: first..<(last + 1), pages: page..<(page + 1)) }
        }
        return nil
    }

    /// Whether the rows off the glass hold, going down from the glass's bottom, the top rows of
    /// `next`, and going up from its top, the bottom rows of `previous`, until the two meet: a
    /// missing neighbour asks for nothing, and rows neither reaches may hold anything.
    mutating func holdsNeighbours(
        _ ram: Bitmap, next: Bitmap?, previous: Bitmap?, line: Int, _ columns: Range<Int>
    ) -> Bool {
        let height = panel.height
        let offRows = ramRows - height
        // Row k off the glass is RAM row line + height + k: row k of the page below, or row
        // k - (offRows - height) of the page above (RAM row line - height + that row).
        let nextDiffers = next.map { rowsDiffering(ram, from: $0, placedAt: line + height, columns) } ?? 0
        let previousDiffers = previous.map { rowsDiffering(ram, from: $0, placedAt: line - height, columns) } ?? 0
        func ramRow(_ k: Int) -> Int { ((line + height + k) % ramRows + ramRows) % ramRows }
        // Each wants as many rows as fit.
        let nextWants = next == nil ? 0 : min(height, offRows)
        let previousWants = previous == nil ? 0 : min(height, offRows)
        var nextRows = 0
        while nextRows < nextWants, nextDiffers & (1 << UInt64(ramRow(nextRows))) == 0 { nextRows += 1 }
        var previousRows = 0
        while previousRows < previousWants, previousDiffers & (1 << UInt64(ramRow(offRows - 1 - previousRows))) == 0 {
            previousRows += 1
        }
        // Where the two do not meet, the rows between must be ones neither wants.
        let meet = nextRows + previousRows >= offRows
        return (meet || nextRows >= nextWants) && (meet || previousRows >= previousWants)
    }

    /// The RAM rows (bit r for RAM row r, of at most 64) where `columns` of `ram` differ from
    /// `frame` placed with its top row on RAM row `first`; rows the frame does not reach are set.
    /// A RAM page at a time, through the plan's spare image (`scratch.before`): no pixel loop.
    private mutating func rowsDiffering(_ ram: Bitmap, from frame: Bitmap, placedAt first: Int, _ columns: Range<Int>)
        -> UInt64
    {
        let reached = placeInScratch(frame, at: first)
        let width = panel.width
        let columns = columns.clamped(to: 0..<width)
        var differs: UInt64 = 0
        scratch.before.bytes.withUnsafeBufferPointer { placed in
            ram.bytes.withUnsafeBufferPointer { ram in
                for page in 0..<(ramRows / 8) {
                    var rows: UInt8 = 0
                    for x in columns { rows |= placed[page * width + x] ^ ram[page * width + x] }
                    differs |= UInt64(rows) << UInt64(page * 8)
                }
            }
        }
        return differs | ~reached
    }

    /// Places `frame` (fitted to the panel) in `scratch.before`, a RAM image, its top row on RAM
    /// row `first` (modulo the RAM's rows); returns the RAM rows it reached, one bit a row.
    private mutating func placeInScratch(_ frame: Bitmap, at first: Int) -> UInt64 {
        let picture = fitted(frame)
        let width = panel.width
        let rows = ramRows
        var spare: Bitmap?
        Self.prepare(&scratch.before, width: width, rows: rows, spare: &spare)
        let line = (first % rows + rows) % rows
        scratch.before.withUnsafeMutablePageBytes { target in
            Self.place(picture, pages: picture.pageCount, width: width, line: line, ramPages: rows / 8, into: target)
        }
        return Self.rowMask(from: line, count: min(picture.height, rows))
    }

    /// `count` RAM rows from row `first` on, wrapping at row 64, one bit a row.
    static func rowMask(from first: Int, count: Int) -> UInt64 {
        let run: UInt64 = count >= 64 ? ~0 : (1 << UInt64(max(0, count))) - 1
        let shift = UInt64((first % 64 + 64) % 64)
        return shift == 0 ? run : (run << shift) | (run >> (64 - shift))
    }

    /// `plan.image` made `ram` with the rows off the glass taken by the neighbours, as a slide of
    /// a whole page brings them into view: the page below's row r on RAM row line + height + r,
    /// the page above's on line - height + r; where both want a row, `nextWins` says which has it.
    private mutating func placeOffGlass(
        next: Bitmap?, previous: Bitmap?, nextWins: Bool, line: Int, ram: Bitmap, columns: Range<Int>
    ) {
        Self.prepare(&plan.image, width: panel.width, rows: ramRows, spare: &scratch.spare)
        plan.image.withUnsafeMutablePageBytes { target in
            ram.bytes.withUnsafeBufferPointer { ram in _ = target.update(fromContentsOf: ram) }
        }
        let height = panel.height
        if nextWins {
            place(previous, from: line - height, line: line, columns: columns)
            place(next, from: line + height, line: line, columns: columns)
        } else {
            place(next, from: line + height, line: line, columns: columns)
            place(previous, from: line - height, line: line, columns: columns)
        }
    }

    /// Copies `columns` of the rows of `frame` onto RAM rows `first` onwards in `plan.image`,
    /// those the glass shows with the start line at `line` left alone: placed whole in a spare RAM
    /// image, then taken under a mask of rows, a RAM page at a time.
    private mutating func place(_ frame: Bitmap?, from first: Int, line: Int, columns: Range<Int>) {
        guard let frame else { return }
        let shown = Self.rowMask(from: line, count: panel.height)
        let rows = placeInScratch(frame, at: first) & ~shown
        let width = panel.width
        let columns = columns.clamped(to: 0..<min(width, frame.width))
        let placed = scratch.before
        let pages = ramRows / 8
        plan.image.withUnsafeMutablePageBytes { image in
            placed.bytes.withUnsafeBufferPointer { placed in
                for page in 0..<pages {
                    let mask = UInt8(truncatingIfNeeded: rows >> UInt64(page * 8))
                    guard mask != 0 else { continue }
                    for x in columns {
                        let index = page * width + x
                        image[index] = (image[index] & ~mask) | (placed[index] & mask)
                    }
                }
            }
        }
    }
}
