/// What a blit does to the destination bits under its mask, given the source bits `v`.
///
/// Chosen once per blit, so the row loops below test no ink per byte.
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

extension Bitmap {
    /// Combines `source` with its top-left at `origin` into this bitmap, clipped, a page row at a time.
    ///
    /// A destination page takes its rows from at most two source pages, shifted by the same amount
    /// in every column, so whole bytes (and 8 columns at once as a word) are combined under one
    /// mask per page; the mask keeps the rows outside the clip and the source untouched.
    mutating func combine(_ source: PagedSource, at origin: Point, mode: BlitMode) {
        let target = Rect(origin: origin, size: Size(width: source.width, height: source.height)).intersection(clip)
        guard !target.isEmpty else { return }
        let stride = width
        let firstColumn = target.x - origin.x
        bytes.withUnsafeMutableBufferPointer { destination in
            guard let destinationBase = destination.baseAddress else { return }
            var page = target.y >> 3
            while page * 8 < target.maxY {
                let top = max(target.y - page * 8, 0)
                let bottom = min(target.maxY - page * 8, 8)
                let mask = UInt8(truncatingIfNeeded: (0xFF << top) & (0xFF >> (8 - bottom)))
                // Source row of this page's bit 0; its page and the shift within it (floor, for
                // rows above the source's top). Pages outside the source only feed masked bits,
                // so they are clamped to a page that exists rather than read.
                let sourceRow = page * 8 - origin.y
                let upper = min(max(sourceRow >> 3, 0), source.pageCount - 1)
                let lower = min(max((sourceRow >> 3) + 1, 0), source.pageCount - 1)
                Self.combineRow(
                    into: destinationBase + page * stride + target.x,
                    upper: source.base + upper * source.width + firstColumn,
                    lower: source.base + lower * source.width + firstColumn,
                    count: target.width, shift: sourceRow & 7, mask: mask, mode: mode)
                page += 1
            }
        }
    }

    /// One destination page row: `count` bytes, each from the source bytes above and below shifted
    /// down by `shift` rows, applied under `mask`; 8 columns at a time while 8 remain.
    @inline(__always)
    private static func combineRow(
        into row: UnsafeMutablePointer<UInt8>, upper: UnsafePointer<UInt8>, lower: UnsafePointer<UInt8>,
        count: Int, shift: Int, mask: UInt8, mode: BlitMode
    ) {
        // Within each byte lane: the upper page's bits move down by `shift` (towards bit 0 is up,
        // so right), the lower page's fill the freed high bits. A word shift would carry bits
        // into the neighbouring lane, hence the lane masks.
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
            target.storeBytes(of: mode.apply(old, value, mask: wordMask), as: UInt64.self)
            x += 8
        }
        while x < count {
            let value = shift == 0 ? upper[x] : (upper[x] &>> UInt8(shift)) | (lower[x] &<< UInt8(8 - shift))
            row[x] = mode.apply(row[x], value, mask: mask)
            x += 1
        }
    }

    /// Applies `mode` with every source pixel lit to the pixels of `area` (already clipped).
    mutating func combineSolid(_ area: Rect, mode: BlitMode) {
        guard !area.isEmpty else { return }
        let stride = width
        bytes.withUnsafeMutableBufferPointer { destination in
            guard let destinationBase = destination.baseAddress else { return }
            var page = area.y >> 3
            while page * 8 < area.maxY {
                let top = max(area.y - page * 8, 0)
                let bottom = min(area.maxY - page * 8, 8)
                let mask = UInt8(truncatingIfNeeded: (0xFF << top) & (0xFF >> (8 - bottom)))
                let wordMask = broadcast(mask)
                let row = destinationBase + page * stride + area.x
                var x = 0
                while x + 8 <= area.width {
                    let target = UnsafeMutableRawPointer(row + x)
                    let old = target.loadUnaligned(as: UInt64.self)
                    target.storeBytes(of: mode.apply(old, ~0, mask: wordMask), as: UInt64.self)
                    x += 8
                }
                while x < area.width {
                    row[x] = mode.apply(row[x], 0xFF, mask: mask)
                    x += 1
                }
                page += 1
            }
        }
    }
}
