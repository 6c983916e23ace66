/// What a blit does to the destination bits under its mask, given the source bits `v`.
///
/// Chosen once per blit and turned into a `BlitRule` type, so the row loops are specialized for
/// it and test no ink per byte.
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
    @inline(__always)
    func apply<Word: FixedWidthInteger>(_ d: Word, _ v: Word, mask: Word) -> Word {
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

/// A `BlitMode` as a type: generic row loops specialized for one rule fold its switch away.
protocol BlitRule {
    static var mode: BlitMode { get }
}

enum SetRule: BlitRule { static var mode: BlitMode { .set } }
enum ClearRule: BlitRule { static var mode: BlitMode { .clear } }
enum FlipRule: BlitRule { static var mode: BlitMode { .flip } }
enum CopyRule: BlitRule { static var mode: BlitMode { .copy } }
enum EraseRule: BlitRule { static var mode: BlitMode { .erase } }
enum FlipOrEraseRule: BlitRule { static var mode: BlitMode { .flipOrErase } }

/// A page-packed picture to blit: column bytes, 8 rows to a page, as `Bitmap` stores them.
struct PagedSource {
    /// The first byte of page 0.
    var base: UnsafePointer<UInt8>
    var width: Int
    var height: Int

    var pageCount: Int { (height + 7) >> 3 }
}

/// One byte repeated in every byte of a word: the lane masks of the word-wise loops.
@inline(__always)
private func broadcast(_ byte: UInt8) -> UInt64 {
    UInt64(byte) &* 0x0101_0101_0101_0101
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
    /// Kept hand-tuned (8 columns a word, a loop specialised by ink) because without it the clock
    /// tick misses the 50x against luma.oled it must hold: about 111,000 instructions instead of
    /// 94,123 (43x), and a slide frame about 95,600 instead of 74,120
    /// (`Scripts/bench/bench-vs-luma.sh --instructions`, 2026-11-27).
    ///
    /// A destination page takes its rows from at most two source pages, shifted by the same amount
    /// in every column, so whole bytes (and 8 columns at once as a word) are combined under one
    /// mask per page; the mask keeps the rows outside the clip and the source untouched.
    func combine(_ source: PagedSource, at origin: Point, mode: BlitMode) {
        switch mode {
        case .set: combine(source, at: origin, SetRule.self)
        case .clear: combine(source, at: origin, ClearRule.self)
        case .flip: combine(source, at: origin, FlipRule.self)
        case .copy: combine(source, at: origin, CopyRule.self)
        case .erase: combine(source, at: origin, EraseRule.self)
        case .flipOrErase: combine(source, at: origin, FlipOrEraseRule.self)
        }
    }

    /// Applies `mode` with every source pixel lit to the pixels of `rect`, clipped.
    func fill(_ rect: Rect, mode: BlitMode) {
        switch mode {
        case .set: fill(rect, SetRule.self)
        case .clear: fill(rect, ClearRule.self)
        case .flip: fill(rect, FlipRule.self)
        case .copy: fill(rect, CopyRule.self)
        case .erase: fill(rect, EraseRule.self)
        case .flipOrErase: fill(rect, FlipOrEraseRule.self)
        }
    }

    private func combine<Rule: BlitRule>(_ source: PagedSource, at origin: Point, _: Rule.Type) {
        let target = Rect(origin: origin, size: Size(width: source.width, height: source.height)).intersection(clip)
        guard !target.isEmpty else { return }
        let firstColumn = target.x - origin.x
        var page = target.y >> 3
        while page * 8 < target.maxY {
            // Source row of this page's bit 0; its page and the shift within it (floor, for
            // rows above the source's top). Pages outside the source only feed masked bits,
            // so they are clamped to a page that exists rather than read.
            let sourceRow = page * 8 - origin.y
            let upper = min(max(sourceRow >> 3, 0), source.pageCount - 1)
            let lower = min(max((sourceRow >> 3) + 1, 0), source.pageCount - 1)
            Self.combineRow(
                into: base + page * width + target.x,
                upper: UnsafePointer(source.base + upper * source.width + firstColumn),
                lower: UnsafePointer(source.base + lower * source.width + firstColumn),
                count: target.width, shift: sourceRow & 7, mask: Self.mask(page: page, rows: target), Rule.self)
            page += 1
        }
    }

    private func fill<Rule: BlitRule>(_ rect: Rect, _: Rule.Type) {
        let area = rect.intersection(clip)
        guard !area.isEmpty else { return }
        var page = area.y >> 3
        while page * 8 < area.maxY {
            let mask = Self.mask(page: page, rows: area)
            let wordMask = broadcast(mask)
            let row = base + page * width + area.x
            var x = 0
            while x + 8 <= area.width {
                let target = UnsafeMutableRawPointer(row + x)
                let old = target.loadUnaligned(as: UInt64.self)
                target.storeBytes(of: Rule.mode.apply(old, ~0, mask: wordMask), as: UInt64.self)
                x += 8
            }
            while x < area.width {
                row[x] = Rule.mode.apply(row[x], 0xFF, mask: mask)
                x += 1
            }
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
    @inline(__always)
    private static func mask(page: Int, rows: Rect) -> UInt8 {
        let top = max(rows.y - page * 8, 0)
        let bottom = min(rows.maxY - page * 8, 8)
        return UInt8(truncatingIfNeeded: (0xFF << top) & (0xFF >> (8 - bottom)))
    }

    /// One destination page row: `count` bytes, each from the source bytes above and below shifted
    /// down by `shift` rows, applied under `mask`; 8 columns at a time while 8 remain.
    @inline(__always)
    private static func combineRow<Rule: BlitRule>(
        into row: UnsafeMutablePointer<UInt8>, upper: UnsafePointer<UInt8>, lower: UnsafePointer<UInt8>,
        count: Int, shift: Int, mask: UInt8, _: Rule.Type
    ) {
        // Within each byte lane: the upper page's bits move down by `shift` (towards bit 0 is up,
        // so right), the lower page's fill the freed high bits. A word shift would carry bits
        // into the neighbouring lane, hence the lane masks.
        // A copy of whole, aligned bytes (an opaque page placed on a page boundary): the bytes as they are.
        if Rule.mode == .copy, shift == 0, mask == 0xFF {
            row.update(from: upper, count: count)
            return
        }
        let upperLanes = broadcast(0xFF >> UInt8(shift))
        let lowerLanes = broadcast(UInt8(truncatingIfNeeded: 0xFF << (8 - shift)))
        let wordMask = broadcast(mask)
        var x = 0
        while x + 8 <= count {
            let above = UnsafeRawPointer(upper + x).loadUnaligned(as: UInt64.self)
            let value: UInt64
            if shift == 0 {
                value = above
            } else {
                let below = UnsafeRawPointer(lower + x).loadUnaligned(as: UInt64.self)
                value = ((above &>> UInt64(shift)) & upperLanes) | ((below &<< UInt64(8 - shift)) & lowerLanes)
            }
            let target = UnsafeMutableRawPointer(row + x)
            let old = target.loadUnaligned(as: UInt64.self)
            target.storeBytes(of: Rule.mode.apply(old, value, mask: wordMask), as: UInt64.self)
            x += 8
        }
        while x < count {
            let value = shift == 0 ? upper[x] : (upper[x] &>> UInt8(shift)) | (lower[x] &<< UInt8(8 - shift))
            row[x] = Rule.mode.apply(row[x], value, mask: mask)
            x += 1
        }
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
