import PagerGraphics

/// How a frame is planned: which rows change, where a slide moves the start line, which RAM
/// pages and windows a write covers. Pure functions of the panel and the pictures.
extension SSD1306Driver {
    /// Makes `image` a RAM image (`rows` rows of `width` columns) to overwrite: as it is when it
    /// is one, else `spare` or, the first time, a new one.
    static func prepare(_ image: inout Bitmap, width: Int, rows: Int, spare: inout Bitmap?) {
        guard image.width != width || image.height != rows else { return }
        if let kept = spare, kept.width == width, kept.height == rows {
            image = kept
            spare = nil
        } else {
            image = Bitmap(width: width, height: rows)
        }
    }

    /// Makes `plan` the way to show `picture` with the start line at `line`: its RAM image, rows
    /// the glass does not show kept from `ram` (whose `known` pages the driver knows), and the
    /// windows that write it, in the plan's own buffers.
    static func plan(
        _ picture: Bitmap, at line: Int, over ram: Bitmap, known: UInt16, panel: SSD1306Panel,
        into plan: inout DisplayPlan, scratch: inout DisplayUpdateScratch, costLimit: Int = .max
    ) {
        let width = panel.width
        let rows = panel.controller.ramRows
        prepare(&plan.image, width: width, rows: rows, spare: &scratch.spare)
        plan.image.withUnsafeMutablePageBytes { target in
            ram.bytes.withUnsafeBufferPointer { ram in _ = target.update(fromContentsOf: ram) }
            place(
                picture, pages: min(panel.pageCount, picture.pageCount), width: width, line: line,
                ramPages: rows / 8, into: target)
        }
        let shown = pagesShown(from: line, panel)
        var before = ram
        if shown & ~known != 0 {
            var spare: Bitmap?
            prepare(&scratch.before, width: width, rows: rows, spare: &spare)
            let image = plan.image
            scratch.before.withUnsafeMutablePageBytes { old in
                ram.bytes.withUnsafeBufferPointer { ram in _ = old.update(fromContentsOf: ram) }
                image.bytes.withUnsafeBufferPointer { target in
                    for page in 0..<(rows / 8) where shown & ~known & (1 << UInt16(page)) != 0 {
                        // Pages the glass needs and RAM does not know: every byte differs, so every byte is sent.
                        for x in 0..<width { old[page * width + x] = ~target[page * width + x] }
                    }
                }
            }
            before = scratch.before
        }
        windows(of: shown, width: width, into: &scratch.whole)
        DisplayUpdatePlanner.windows(
            from: before, to: plan.image, controller: panel.controller, whole: scratch.whole, into: &plan.windows,
            costLimit: costLimit)
        plan.cost = plan.windows.reduce(0) { $0 + DisplayUpdatePlanner.cost(of: $1, controller: panel.controller) }
        plan.line = line
        plan.pages = shown
    }

    /// Writes the first `pages` pages of `picture` into the RAM image `target` (`ramPages` pages
    /// of `width` bytes) where the glass shows them with the start line at `line`. Not generic
    /// over the bus, and through buffer pointers: the loop compiles to plain byte operations.
    static func place(
        _ picture: Bitmap, pages: Int, width: Int, line: Int, ramPages: Int = 8,
        into target: UnsafeMutableBufferPointer<UInt8>
    ) {
        let shift = UInt8(line & 7)
        let low: UInt8 = 0xFF << shift
        let wrap = ramPages - 1  // 8 or 16 pages: a mask
        picture.bytes.withUnsafeBufferPointer { picture in
            guard let source = picture.baseAddress, let ram = target.baseAddress,
                picture.count >= pages * width, target.count >= ramPages * width
            else { return }
            for page in 0..<pages {
                // The 8 rows of this glass page land on RAM rows 8 * page + line onwards: one RAM page, or two.
                let first = ram + (((page * 8 + line) >> 3) & wrap) * width
                let second = ram + ((((page * 8 + line) >> 3) + 1) & wrap) * width
                let bytes = source + page * width
                if shift == 0 {
                    first.update(from: bytes, count: width)
                    continue
                }
                for x in 0..<width {
                    first[x] = (first[x] & ~low) | (bytes[x] << shift)
                    second[x] = (second[x] & low) | (bytes[x] >> (8 - shift))
                }
            }
        }
    }

    /// The RAM pages the glass shows with the start line at `line`, one bit a page.
    static func pagesShown(from line: Int, _ panel: SSD1306Panel) -> UInt16 {
        let wrap = panel.controller.ramPages - 1
        var pages: UInt16 = 0
        for row in stride(from: 0, to: panel.height, by: 8) {
            pages |= 1 << UInt16(((row + line) >> 3) & wrap)
            pages |= 1 << UInt16(((row + line + 7) >> 3) & wrap)
        }
        return pages
    }

    /// The fewest windows of whole rows that cover `pages`, into `windows` (its storage reused).
    static func windows(of pages: UInt16, width: Int, into windows: inout [DisplayWindow]) {
        windows.removeAll(keepingCapacity: true)
        for page in 0..<16 where pages & (1 << UInt16(page)) != 0 {
            if let last = windows.last, last.pages.upperBound == page {
                windows[windows.count - 1].pages = last.pages.lowerBound..<(page + 1)
            } else {
                windows.append(DisplayWindow(columns: 0..<width, pages: page..<(page + 1)))
            }
        }
    }
}
