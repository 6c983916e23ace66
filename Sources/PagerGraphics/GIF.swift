/// Writes 1-bit frames as an animated GIF89a, piece by piece, so a long recording never sits in memory.
///
/// The file has a two-colour global table (index 0 the unlit colour, 1 the lit one) and loops
/// forever (the NETSCAPE2.0 application extension every viewer honours). Each frame after the
/// first holds only the rectangle that changed since the frame before, drawn over it (disposal
/// method 1, "do not dispose"), so a page slide or a clock tick costs a strip, not a picture.
/// The pixel data is LZW-compressed as GIF89a section 22 and appendix F describe: 2-bit minimum
/// code size, codes growing from 3 to 12 bits, a clear code when the table is full.
public struct AnimatedGIF {
    /// The frame size in bitmap pixels.
    public let width: Int
    /// The frame size in bitmap pixels.
    public let height: Int
    /// Each bitmap pixel becomes a `scale` x `scale` square.
    public let scale: Int
    /// The colour of a lit pixel.
    public let lit: PNG.Color
    /// The colour of an unlit pixel.
    public let dark: PNG.Color
    /// The last frame written, which the next one is drawn over; nil before the first.
    private var previous: Bitmap?

    /// The largest delay one frame can carry: 16 bits of hundredths of a second.
    public static let longestDelay = 65_535

    /// An animation of `width` x `height` frames, each pixel `scale` x `scale` (1 to 16) in `lit` and `dark`.
    public init(width: Int, height: Int, scale: Int = 4, lit: PNG.Color = .white, dark: PNG.Color = .black) {
        self.width = max(1, width)
        self.height = max(1, height)
        self.scale = min(16, max(1, scale))
        self.lit = lit
        self.dark = dark
    }

    /// The file's start: signature, logical screen, colour table and the loop-forever extension.
    public func header() -> [UInt8] {
        var out = Array("GIF89a".utf8)
        out.appendLittleEndian(UInt16(clamping: width * scale))
        out.appendLittleEndian(UInt16(clamping: height * scale))
        // Global colour table of 2 entries (size field 0), 1 bit of colour resolution, background index 0.
        out += [0x80, 0, 0]
        out += [dark.red, dark.green, dark.blue, lit.red, lit.green, lit.blue]
        // NETSCAPE2.0: sub-block 1 holds the loop count, 0 for forever.
        out += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]
        return out
    }

    /// The file's end.
    public static let trailer: [UInt8] = [0x3B]

    /// The bytes of `frame`, shown for `delay` hundredths of a second (clamped to 0...`longestDelay`).
    ///
    /// The first frame is written whole; later ones only where they differ from the frame before,
    /// and a frame equal to it as a single unchanged pixel, which carries the delay.
    public mutating func frame(_ frame: Bitmap, delay: Int) -> [UInt8] {
        let box: Rect
        if let previous, previous.width == frame.width, previous.height == frame.height {
            box = Self.changedBox(previous, frame) ?? Rect(x: 0, y: 0, width: 1, height: 1)
        } else {
            box = Rect(x: 0, y: 0, width: frame.width, height: frame.height)
        }
        previous = frame
        let clamped = UInt16(min(Self.longestDelay, max(0, delay)))
        // Graphic control extension: disposal 1 (leave the frame in place), no transparency.
        var out: [UInt8] = [0x21, 0xF9, 0x04, 0x04]
        out.appendLittleEndian(clamped)
        out += [0x00, 0x00]
        // Image descriptor: the changed box, scaled, no local colour table, not interlaced.
        out.append(0x2C)
        out.appendLittleEndian(UInt16(clamping: box.x * scale))
        out.appendLittleEndian(UInt16(clamping: box.y * scale))
        out.appendLittleEndian(UInt16(clamping: box.width * scale))
        out.appendLittleEndian(UInt16(clamping: box.height * scale))
        out.append(0x00)
        out.append(Self.minimumCodeSize)
        var encoder = LZWEncoder()
        var row: [UInt8] = []
        row.reserveCapacity(box.width * scale)
        for y in box.y..<(box.y + box.height) {
            row.removeAll(keepingCapacity: true)
            for x in box.x..<(box.x + box.width) {
                let index: UInt8 = frame[x, y] ? 1 : 0
                for _ in 0..<scale { row.append(index) }
            }
            for _ in 0..<scale {
                for index in row { encoder.add(index) }
            }
        }
        encoder.finish()
        var data = encoder.bytes[...]
        while !data.isEmpty {
            let block = data.prefix(255)
            out.append(UInt8(block.count))
            out += block
            data = data.dropFirst(block.count)
        }
        out.append(0x00)
        return out
    }

    /// The smallest rectangle holding every pixel that differs between `old` and `new`; nil when none does.
    static func changedBox(_ old: Bitmap, _ new: Bitmap) -> Rect? {
        var minX = Int.max
        var minY = Int.max
        var maxX = -1
        var maxY = -1
        for y in 0..<new.height {
            for x in 0..<new.width where old[x, y] != new[x, y] {
                minX = min(minX, x)
                maxX = max(maxX, x)
                minY = min(minY, y)
                maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        return Rect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// Two colours need codes of 2 bits at least (GIF89a appendix F: the minimum code size is 2).
    static let minimumCodeSize: UInt8 = 2
}

/// GIF's variable-length LZW over the two-symbol alphabet {0, 1}, packed least significant bit first.
struct LZWEncoder {
    private static let clearCode = 4
    private static let endCode = 5
    private static let largestCode = 4095
    /// The code of each string extended by one symbol: `children[code * 2 + symbol]`, 0 when absent
    /// (0 is never a string's extension: codes below 6 are the roots and the two control codes).
    private var children = [UInt16](repeating: 0, count: (largestCode + 1) * 2)
    /// The last code assigned.
    private var lastCode = endCode
    private var codeSize = 3
    /// The string matched so far, as its code; nil before the first symbol.
    private var current: Int?
    private var bitBuffer: UInt32 = 0
    private var bitCount = 0
    /// The packed codes.
    private(set) var bytes: [UInt8] = []

    init() {
        write(Self.clearCode)
    }

    /// Adds one pixel's colour index (0 or 1).
    mutating func add(_ symbol: UInt8) {
        let symbol = Int(symbol & 1)
        guard let prefix = current else {
            current = symbol
            return
        }
        let child = Int(children[prefix * 2 + symbol])
        if child != 0 {
            current = child
            return
        }
        write(prefix)
        lastCode += 1
        children[prefix * 2 + symbol] = UInt16(lastCode)
        // The decoder widens its codes once its table reaches the next power of two.
        if lastCode >= 1 << codeSize, codeSize < 12 { codeSize += 1 }
        if lastCode == Self.largestCode {
            // The table is full: start again, as the decoder will on the clear code.
            write(Self.clearCode)
            children = [UInt16](repeating: 0, count: children.count)
            lastCode = Self.endCode
            codeSize = 3
        }
        current = symbol
    }

    /// Writes the string in hand and the end code, and pads the last byte.
    mutating func finish() {
        if let current {
            write(current)
            // A decoder adds a table entry for this code too, and may widen its codes before
            // it reads the end code: write that code as wide as it will be read.
            lastCode += 1
            if lastCode >= 1 << codeSize, codeSize < 12 { codeSize += 1 }
        }
        current = nil
        write(Self.endCode)
        if bitCount > 0 {
            bytes.append(UInt8(truncatingIfNeeded: bitBuffer))
            bitBuffer = 0
            bitCount = 0
        }
    }

    private mutating func write(_ code: Int) {
        bitBuffer |= UInt32(code) << UInt32(bitCount)
        bitCount += codeSize
        while bitCount >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: bitBuffer))
            bitBuffer >>= 8
            bitCount -= 8
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate mutating func appendLittleEndian(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
    }
}
