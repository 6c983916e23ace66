/// What a blit does to the destination bits under its mask, given the source bits `v`.
enum BlitMode: Sendable {
    /// Lit source pixels light the destination (`.on`, transparent).
    case set
    /// Lit source pixels darken the destination (`.off`, transparent; `.off` opaque darkens all).
    case clear
    /// Lit source pixels invert the destination (`.inverted`, transparent).
    case flip
    /// The destination becomes the source (`.on`, opaque).
    case copy
    /// Every pixel under the mask goes dark (`.off`, opaque: lit and dark pixels both darken).
    case erase
    /// Lit source pixels invert the destination, dark ones darken it (`.inverted`, opaque).
    case flipOrErase

    init(ink: Ink, opaque: Bool) {
        switch (ink, opaque) {
        case (.on, false): self = .set
        case (.off, false): self = .clear
        case (.inverted, false): self = .flip
        case (.on, true): self = .copy
        case (.off, true): self = .erase
        case (.inverted, true): self = .flipOrErase
        }
    }

    /// The destination `d` after applying source bits `v` under `mask`; bits outside `mask` stay.
    func apply(_ d: UInt8, _ v: UInt8, mask: UInt8) -> UInt8 {
        switch self {
        case .set: return d | (v & mask)
        case .clear: return d & ~(v & mask)
        case .flip: return d ^ (v & mask)
        case .copy: return (d & ~mask) | (v & mask)
        case .erase: return d & ~mask
        case .flipOrErase: return (~d & v & mask) | (d & ~mask)
        }
    }
}

/// A page-packed picture to blit: column bytes, 8 rows to a page, as `Bitmap` stores them.
struct PagedSource {
    /// The first byte of page 0.
    var base: UnsafePointer<UInt8>
    var width: Int
    var height: Int

    var pageCount: Int { (height + 7) >> 3 }
}

/// A bitmap's bytes held for drawing: one exclusive access for a whole string or shape, rather
/// than one a glyph or a line.
struct PageCanvas {
    /// The first byte of page 0.
    let base: UnsafeMutablePointer<UInt8>
    /// Bytes a page: the bitmap's width.
    let width: Int
    /// Drawing outside it changes nothing; inside the bitmap.
    let clip: Rect

    /// Combines `source` with its top-left at `origin`, clipped, a page row at a time.
    ///
    /// A destination page takes its rows from at most two source pages, shifted by the same amount
    /// in every column, so each byte is combined under one mask per page; the mask keeps the rows
    /// outside the clip and the source untouched.
    func combine(_ source: PagedSource, at origin: Point, mode: BlitMode) {
        let target = Rect(origin: origin, size: Size(width: source.width, height: source.height)).intersection(clip)
        guard !target.isEmpty else { return }
        let firstColumn = target.x - origin.x
        var page = target.y >> 3
        while page * 8 < target.maxY {
            // Source row of this page's bit 0; its page and the shift within it (floor, for
            // rows above the source's top). Pages outside the source only feed masked bits,
            // so they are clamped to a page that exists rather than read.
            let sourceRow = page * 8 - origin.y
            let upper = source.base + min(max(sourceRow >> 3, 0), source.pageCount - 1) * source.width + firstColumn
            let lower =
                source.base + min(max((sourceRow >> 3) + 1, 0), source.pageCount - 1) * source.width + firstColumn
            let shift = UInt8(sourceRow & 7)
            let mask = Self.mask(page: page, rows: target)
            let row = base + page * width + target.x
            // Within each byte the upper page's bits move down by `shift` (towards bit 0 is up, so
            // right), the lower page's fill the freed high bits.
            for x in 0..<target.width {
                let value = shift == 0 ? upper[x] : (upper[x] &>> shift) | (lower[x] &<< (8 - shift))
                row[x] = mode.apply(row[x], value, mask: mask)
            }
            page += 1
        }
    }

    /// Applies `mode` with every source pixel lit to the pixels of `rect`, clipped.
    func fill(_ rect: Rect, mode: BlitMode) {
        let area = rect.intersection(clip)
        guard !area.isEmpty else { return }
        var page = area.y >> 3
        while page * 8 < area.maxY {
            let mask = Self.mask(page: page, rows: area)
            let row = base + page * width + area.x
            for x in 0..<area.width { row[x] = mode.apply(row[x], 0xFF, mask: mask) }
            page += 1
        }
    }

    /// Draws the one-pixel outline of `rect`, each pixel once so `.inverted` (`flip`) is exact.
    func stroke(_ rect: Rect, mode: BlitMode) {
        guard !rect.isEmpty else { return }
        fill(Rect(x: rect.x, y: rect.y, width: rect.width, height: 1), mode: mode)
        if rect.height > 1 { fill(Rect(x: rect.x, y: rect.maxY - 1, width: rect.width, height: 1), mode: mode) }
        if rect.height > 2 {
            fill(Rect(x: rect.x, y: rect.y + 1, width: 1, height: rect.height - 2), mode: mode)
            if rect.width > 1 {
                fill(Rect(x: rect.maxX - 1, y: rect.y + 1, width: 1, height: rect.height - 2), mode: mode)
            }
        }
    }

    /// The bits of `page` that hold rows of `rows` (which overlaps the page).
    private static func mask(page: Int, rows: Rect) -> UInt8 {
        let top = max(rows.y - page * 8, 0)
        let bottom = min(rows.maxY - page * 8, 8)
        return UInt8(truncatingIfNeeded: (0xFF << top) & (0xFF >> (8 - bottom)))
    }
}

extension Bitmap {
    /// Runs `body` with this bitmap's bytes as a canvas clipped to `clip`; nothing when it is empty.
    mutating func withCanvas(_ body: (PageCanvas) -> Void) {
        let clip = clip
        let width = width
        bytes.withUnsafeMutableBufferPointer { destination in
            guard let base = destination.baseAddress else { return }
            body(PageCanvas(base: base, width: width, clip: clip))
        }
    }
}
