/// A packed 1-bit image laid out like SSD1306 display RAM (GDDRAM).
///
/// The image is cut into pages of 8 rows. Each byte holds one column of one page,
/// least significant bit at the top (SSD1306 datasheet, section 8.7, Figure 8-13):
///
///     byte at (page p, column x):  bit0 -> row 8p+0
///                                  bit1 -> row 8p+1
///                                  ...
///                                  bit7 -> row 8p+7
///
/// so a frame goes to the controller without repacking. Every drawing operation
/// is clipped to `clip`, which starts as the whole bitmap.
public struct Bitmap: Hashable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Rows are packed 8 to a page: `bytes[page * width + x]`.
    public internal(set) var bytes: [UInt8]
    /// Drawing outside this rectangle leaves the bitmap unchanged.
    public var clip: Rect {
        didSet { clip = clip.intersection(bounds) }
    }

    /// A dark bitmap; a negative size is treated as empty.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        let pages = (self.height + 7) / 8
        self.bytes = [UInt8](repeating: 0, count: self.width * pages)
        self.clip = Rect(x: 0, y: 0, width: self.width, height: self.height)
    }

    /// A dark bitmap of `size`.
    public init(size: Size) {
        self.init(width: size.width, height: size.height)
    }

    /// A bitmap from page-packed bytes; nil when `bytes` does not hold exactly the pages of `width` x `height`.
    public init?(width: Int, height: Int, pageBytes: [UInt8]) {
        guard width >= 0, height >= 0, pageBytes.count == width * ((height + 7) / 8) else { return nil }
        // The bytes are taken as they are, not copied over a dark bitmap made first: no allocation.
        self.width = width
        self.height = height
        self.bytes = pageBytes
        self.clip = Rect(x: 0, y: 0, width: width, height: height)
        clearPadding()
    }

    /// A bitmap from a picture drawn in text, one string a row, `#` lit and anything else dark.
    public init(rows: [String]) {
        let height = rows.count
        let width = rows.map { $0.unicodeScalars.count }.max() ?? 0
        self.init(width: width, height: height)
        for (y, row) in rows.enumerated() {
            for (x, scalar) in row.unicodeScalars.enumerated() where scalar == "#" {
                self[x, y] = true
            }
        }
    }

    /// The whole bitmap as a rectangle.
    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }
    /// Width and height.
    public var size: Size { Size(width: width, height: height) }
    /// The number of 8-row pages.
    public var pageCount: Int { (height + 7) / 8 }

    /// The pixel at column `x`, row `y`; reads outside the bitmap are dark, writes outside `clip` are ignored.
    public subscript(x: Int, y: Int) -> Bool {
        get {
            guard x >= 0, x < width, y >= 0, y < height else { return false }
            return bytes[(y >> 3) * width + x] & (1 << UInt8(y & 7)) != 0
        }
        set {
            guard clip.contains(Point(x: x, y: y)) else { return }
            let index = (y >> 3) * width + x
            let mask: UInt8 = 1 << UInt8(y & 7)
            if newValue { bytes[index] |= mask } else { bytes[index] &= ~mask }
        }
    }

    /// The 8 rows of `page` at column `x`, as the controller stores them; 0 outside the bitmap.
    /// Inlinable: the driver and the update planner call it for every byte of a frame.
    @inlinable
    public func pageByte(page: Int, column x: Int) -> UInt8 {
        guard page >= 0, page < pageCount, x >= 0, x < width else { return 0 }
        return bytes[page * width + x]
    }

    /// The bytes of one page, left to right.
    @inlinable
    public func pageBytes(_ page: Int) -> ArraySlice<UInt8> {
        guard page >= 0, page < pageCount else { return [] }
        return bytes[(page * width)..<((page + 1) * width)]
    }

    /// Appends the bytes of `page` in `columns`, left to right, to `data`; 0 outside the bitmap.
    /// A frame's display data is built this way: a slice copy, not a call a byte.
    public func appendPageBytes(_ page: Int, columns: Range<Int>, to data: inout [UInt8]) {
        let inside = columns.clamped(to: 0..<width)
        guard page >= 0, page < pageCount, !inside.isEmpty else {
            data.append(contentsOf: repeatElement(0, count: columns.count))
            return
        }
        let row = page * width
        if inside.lowerBound > columns.lowerBound {
            data.append(contentsOf: repeatElement(0, count: inside.lowerBound - columns.lowerBound))
        }
        // Through a buffer pointer: a plain copy, with no generic collection code to look up at run time.
        bytes.withUnsafeBufferPointer { all in
            data.append(
                contentsOf: UnsafeBufferPointer(rebasing: all[(row + inside.lowerBound)..<(row + inside.upperBound)]))
        }
        if columns.upperBound > inside.upperBound {
            data.append(contentsOf: repeatElement(0, count: columns.upperBound - inside.upperBound))
        }
    }

    /// Applies `ink` to one pixel, respecting `clip`.
    public mutating func plot(x: Int, y: Int, ink: Ink = .on) {
        guard clip.contains(Point(x: x, y: y)) else { return }
        let index = (y >> 3) * width + x
        let mask: UInt8 = 1 << UInt8(y & 7)
        switch ink {
        case .on: bytes[index] |= mask
        case .off: bytes[index] &= ~mask
        case .inverted: bytes[index] ^= mask
        }
    }

    /// Sets every pixel inside `clip` to `lit`.
    public mutating func fill(_ lit: Bool) {
        fillRect(clip, ink: lit ? .on : .off)
    }

    /// Makes this a dark bitmap of `size`, its clip the whole bitmap, reusing its storage when
    /// the size is the same (no allocation: a frame loop redraws into one bitmap).
    public mutating func reset(to size: Size) {
        guard size == self.size else {
            self = Bitmap(size: size)
            return
        }
        clip = bounds
        bytes.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }

    /// Calls `body` with the page-packed bytes (`[page * width + x]`) to change in place: no
    /// copy while the storage is not shared, so a driver keeps images from frame to frame.
    public mutating func withUnsafeMutablePageBytes<Result>(
        _ body: (UnsafeMutableBufferPointer<UInt8>) -> Result
    ) -> Result {
        bytes.withUnsafeMutableBufferPointer { body($0) }
    }

    /// The number of lit pixels.
    public var litPixelCount: Int {
        bytes.reduce(0) { $0 + $1.nonzeroBitCount }
    }

    /// Rows past `height` in the last page stay dark so equal pictures compare equal.
    mutating func clearPadding() {
        let spare = pageCount * 8 - height
        guard spare > 0 else { return }
        let keep: UInt8 = 0xFF >> UInt8(spare)
        let start = (pageCount - 1) * width
        for index in start..<(start + width) { bytes[index] &= keep }
    }
}

extension Bitmap {
    /// Two bitmaps are equal when they hold the same picture; `clip` is drawing state, not picture.
    public static func == (lhs: Bitmap, rhs: Bitmap) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.bytes == rhs.bytes
    }

    /// Hashes the picture, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(bytes)
    }
}

extension Bitmap: CustomStringConvertible {
    /// The picture as rows of `#` (lit) and `.` (dark), for test failures and debugging.
    public var description: String {
        var text = ""
        text.reserveCapacity((width + 1) * height)
        for y in 0..<height {
            for x in 0..<width { text.append(self[x, y] ? "#" : ".") }
            if y < height - 1 { text.append("\n") }
        }
        return text
    }
}
