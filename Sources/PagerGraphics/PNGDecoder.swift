/// Reading PNG images (PNG specification, ISO/IEC 15948, and RFC 2083) into 1-bit bitmaps.
///
/// Every colour type and bit depth is read (grey, RGB, palette, grey with alpha, RGBA; 1 to 16
/// bits), interlaced (Adam7) or not, with tRNS transparency. A pixel is lit when its luminance,
/// composited over black (the unlit glass), reaches the threshold: luminance is the Rec. 601
/// weighting 0.299 R + 0.587 G + 0.114 B, so by default light pixels light up and transparent
/// ones stay dark, as on the panel.
extension PNG {
    /// The PNG file signature: the bytes every PNG starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The largest side accepted when reading, as for PBM.
    public static let maximumSide = PBM.maximumSide
    /// The most bytes the decompressed pixel data may take (32 MiB): a bound on memory, and no decompression bombs.
    public static let maximumImageDataBytes = 1 << 25

    /// Reads a PNG image; a pixel is lit when its luminance over black is at least `threshold` (of 255; 0 counts as 1).
    public static func decode(_ data: some Collection<UInt8>, threshold: UInt8 = 128) throws(PNGDecodingError) -> Bitmap
    {
        let file = try PNGFile(Array(data))
        let expected = file.header.imageDataBytes
        guard expected <= maximumImageDataBytes else { throw .tooLarge(bytes: expected, limit: maximumImageDataBytes) }
        var raw: [UInt8]
        do throws(InflateError) {
            raw = try Inflate.zlib(file.compressed, maximumOutput: expected)
        } catch {
            throw .corruptImageData(error)
        }
        guard raw.count == expected else { throw .imageDataTooShort(expected: expected, found: raw.count) }
        try PNGScanlines.unfilter(&raw, header: file.header)
        return try PNGScanlines.bitmap(from: raw, file: file, threshold: max(1, Int(threshold)))
    }
}

/// The fields of IHDR the decoder uses.
struct PNGHeader {
    var width: Int
    var height: Int
    var bitDepth: Int
    var colorType: UInt8
    var interlaced: Bool

    /// Samples per pixel: grey 1, RGB 3, palette index 1, grey and alpha 2, RGBA 4.
    var channels: Int {
        switch colorType {
        case 2: return 3
        case 4: return 2
        case 6: return 4
        default: return 1
        }
    }

    var bitsPerPixel: Int { channels * bitDepth }

    /// The bytes of one scanline of `width` pixels, without its filter-type byte.
    func rowBytes(width: Int) -> Int { (width * bitsPerPixel + 7) / 8 }

    /// The passes the scanlines come in: one for a plain image, Adam7's seven for an interlaced one.
    var passes: [PNGPass] {
        let grid = interlaced ? PNGPass.adam7 : [(0, 0, 1, 1)]
        return grid.map { x, y, dx, dy in
            PNGPass(
                x: x, y: y, dx: dx, dy: dy, width: width > x ? (width - x + dx - 1) / dx : 0,
                height: height > y ? (height - y + dy - 1) / dy : 0)
        }
    }

    /// The decompressed size of the pixel data: each non-empty pass's rows with their filter bytes.
    var imageDataBytes: Int {
        passes.reduce(0) { total, pass in
            pass.width == 0 ? total : total + pass.height * (1 + rowBytes(width: pass.width))
        }
    }

    /// Bit depths allowed for each colour type (PNG specification, table 11.1).
    static func allowedDepths(colorType: UInt8) -> [Int]? {
        switch colorType {
        case 0: return [1, 2, 4, 8, 16]
        case 3: return [1, 2, 4, 8]
        case 2, 4, 6: return [8, 16]
        default: return nil
        }
    }
}

/// One pass of scanlines: the pixels at (x + i * dx, y + j * dy).
struct PNGPass {
    var x: Int
    var y: Int
    var dx: Int
    var dy: Int
    var width: Int
    var height: Int

    /// Adam7's starting column and row, and steps, for passes 1 to 7 (PNG specification, 8.2).
    static let adam7 = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
    ]
}

/// The chunks of a PNG file that matter for its pixels, checked.
struct PNGFile {
    var header: PNGHeader
    /// PLTE as (red, green, blue) triples.
    var palette: [(UInt8, UInt8, UInt8)] = []
    /// tRNS: alpha per palette entry, or the one transparent grey or RGB sample value.
    var transparency: [UInt8] = []
    /// The IDAT chunks' data, concatenated: one zlib stream.
    var compressed: [UInt8] = []

    init(_ bytes: [UInt8]) throws(PNGDecodingError) {
        guard bytes.starts(with: PNG.signature) else { throw .notPNG }
        var offset = PNG.signature.count
        var header: PNGHeader?
        var sawIDAT = false
        var compressed: [UInt8] = []
        var palette: [(UInt8, UInt8, UInt8)] = []
        var transparency: [UInt8] = []
        while true {
            guard offset + 8 <= bytes.count else {
                throw .truncated(
                    offset == bytes.count ? "no IEND chunk" : "a chunk header is cut off at offset \(offset)")
            }
            let length = Int(Self.bigEndian(bytes, at: offset))
            let typeBytes = bytes[(offset + 4)..<(offset + 8)]
            let type = Self.name(typeBytes)
            guard length <= Int(Int32.max), offset + 12 + length <= bytes.count else {
                throw .truncated("chunk \(type) at offset \(offset) declares \(length) bytes, more than the file holds")
            }
            let data = bytes[(offset + 8)..<(offset + 8 + length)]
            guard
                PNG.crc32(bytes[(offset + 4)..<(offset + 8 + length)]) == Self.bigEndian(bytes, at: offset + 8 + length)
            else {
                throw .badChunkCRC(chunk: type, offset: offset)
            }
            if header == nil, type != "IHDR" { throw .missingChunk("IHDR", detail: "the first chunk is \(type)") }
            switch type {
            case "IHDR":
                guard header == nil else { throw .invalidChunk("IHDR", detail: "a second IHDR chunk") }
                header = try Self.header(data)
            case "PLTE":
                guard length % 3 == 0, (3...768).contains(length) else {
                    throw .invalidChunk("PLTE", detail: "\(length) bytes is not 1 to 256 RGB entries")
                }
                palette = stride(from: data.startIndex, to: data.endIndex, by: 3).map {
                    (bytes[$0], bytes[$0 + 1], bytes[$0 + 2])
                }
            case "tRNS":
                transparency = Array(data)
            case "IDAT":
                sawIDAT = true
                compressed += data
            case "IEND":
                guard let header else { throw .missingChunk("IHDR", detail: "IEND comes first") }
                guard sawIDAT else { throw .missingChunk("IDAT", detail: "the image has no pixel data") }
                self.header = header
                self.compressed = compressed
                self.palette = palette
                self.transparency = transparency
                try validate()
                return
            default:
                // Bit 5 of the first letter clear (an upper-case letter) marks a critical chunk (PNG specification, 5.4).
                if let first = typeBytes.first, first & 0x20 == 0 { throw .unknownCriticalChunk(type) }
            }
            offset += 12 + length
        }
    }

    /// Checks that the chunks fit the header: a palette for palette images, a tRNS of the right length.
    private func validate() throws(PNGDecodingError) {
        if header.colorType == 3, palette.isEmpty {
            throw .missingChunk("PLTE", detail: "a palette image (colour type 3) needs one")
        }
        let needed: Int?
        switch header.colorType {
        case 0: needed = 2
        case 2: needed = 6
        case 3: needed = nil
        default: needed = transparency.count  // alpha channel: tRNS has no meaning and is ignored
        }
        if let needed, transparency.count != needed, !transparency.isEmpty {
            throw .invalidChunk(
                "tRNS", detail: "\(transparency.count) bytes, expected \(needed) for colour type \(header.colorType)")
        }
        if header.colorType == 3, transparency.count > palette.count {
            throw .invalidChunk(
                "tRNS", detail: "\(transparency.count) alpha values for \(palette.count) palette entries")
        }
    }

    /// Parses and checks IHDR (PNG specification, 11.2.2).
    private static func header(_ data: ArraySlice<UInt8>) throws(PNGDecodingError) -> PNGHeader {
        guard data.count == 13 else { throw .invalidChunk("IHDR", detail: "\(data.count) bytes, expected 13") }
        let bytes = Array(data)
        let width = Int(bigEndian(bytes, at: 0))
        let height = Int(bigEndian(bytes, at: 4))
        guard (1...PNG.maximumSide).contains(width), (1...PNG.maximumSide).contains(height) else {
            throw .unsupportedSize(width: width, height: height)
        }
        let depth = Int(bytes[8])
        let colorType = bytes[9]
        guard let depths = PNGHeader.allowedDepths(colorType: colorType) else {
            throw .invalidChunk("IHDR", detail: "colour type \(colorType) does not exist (0, 2, 3, 4 or 6)")
        }
        guard depths.contains(depth) else {
            throw .invalidChunk("IHDR", detail: "bit depth \(depth) is not allowed with colour type \(colorType)")
        }
        guard bytes[10] == 0 else {
            throw .invalidChunk("IHDR", detail: "compression method \(bytes[10]) (only 0, deflate)")
        }
        guard bytes[11] == 0 else { throw .invalidChunk("IHDR", detail: "filter method \(bytes[11]) (only 0)") }
        guard bytes[12] <= 1 else {
            throw .invalidChunk("IHDR", detail: "interlace method \(bytes[12]) (0 none or 1 Adam7)")
        }
        return PNGHeader(
            width: width, height: height, bitDepth: depth, colorType: colorType, interlaced: bytes[12] == 1)
    }

    static func bigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// A chunk type as text when it is four ASCII letters, else as hexadecimal bytes.
    static func name(_ type: ArraySlice<UInt8>) -> String {
        let isLetters = type.allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
        if isLetters { return String(decoding: type, as: UTF8.self) }
        return "0x" + type.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
