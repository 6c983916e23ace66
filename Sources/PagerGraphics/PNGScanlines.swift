/// Scanline filters and pixel samples of decompressed PNG data (PNG specification, clauses 7 to 9).
enum PNGScanlines {
    /// Undoes each scanline's filter in place, pass by pass; the filter-type bytes stay where they are.
    static func unfilter(_ data: inout [UInt8], header: PNGHeader) throws(PNGDecodingError) {
        // Filters work on bytes, comparing each with the byte of the pixel before: at least one byte back.
        let step = max(1, header.bitsPerPixel / 8)
        var offset = 0
        var row = 0
        for pass in header.passes where pass.width > 0 {
            let rowBytes = header.rowBytes(width: pass.width)
            for line in 0..<pass.height {
                let filter = data[offset]
                let start = offset + 1
                // The first row of a pass has no prior row: the filters read it as zeros.
                let prior = start - (rowBytes + 1)
                let hasPrior = line > 0
                switch filter {
                case 0: break
                case 1:
                    for i in step..<max(step, rowBytes) { data[start + i] &+= data[start + i - step] }
                case 2:
                    guard hasPrior else { break }
                    for i in 0..<rowBytes { data[start + i] &+= data[prior + i] }
                case 3:
                    for i in 0..<rowBytes {
                        let a = i >= step ? Int(data[start + i - step]) : 0
                        let b = hasPrior ? Int(data[prior + i]) : 0
                        data[start + i] &+= UInt8((a + b) / 2)
                    }
                case 4:
                    for i in 0..<rowBytes {
                        let a = i >= step ? Int(data[start + i - step]) : 0
                        let b = hasPrior ? Int(data[prior + i]) : 0
                        let c = hasPrior && i >= step ? Int(data[prior + i - step]) : 0
                        data[start + i] &+= UInt8(paeth(a, b, c))
                    }
                default: throw .badFilterType(filter, row: row)
                }
                offset = start + rowBytes
                row += 1
            }
        }
    }

    /// The Paeth predictor: whichever of left, above and upper-left is closest to left + above - upper-left.
    static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let estimate = a + b - c
        let da = abs(estimate - a)
        let db = abs(estimate - b)
        let dc = abs(estimate - c)
        if da <= db, da <= dc { return a }
        return db <= dc ? b : c
    }

    /// The 1-bit picture of unfiltered data: lit where the luminance over black reaches `threshold` (of 255).
    static func bitmap(from data: [UInt8], file: PNGFile, threshold: Int) throws(PNGDecodingError) -> Bitmap {
        let header = file.header
        var bitmap = Bitmap(width: header.width, height: header.height)
        let shades = PixelShades(file: file)
        let cutoff = threshold * 257  // on the 16-bit scale the samples are widened to
        var offset = 0
        for pass in header.passes where pass.width > 0 {
            let rowBytes = header.rowBytes(width: pass.width)
            for line in 0..<pass.height {
                let row = Samples(data: data, start: offset + 1, depth: header.bitDepth)
                for column in 0..<pass.width {
                    if try shades.luminance(row, pixel: column) >= cutoff {
                        bitmap[pass.x + column * pass.dx, pass.y + line * pass.dy] = true
                    }
                }
                offset += 1 + rowBytes
            }
        }
        return bitmap
    }
}

/// The samples of one scanline, read at the image's bit depth (big-endian, packed high bits first).
struct Samples {
    let data: [UInt8]
    let start: Int
    let depth: Int

    /// The sample at `index` (pixel * channels + channel) as stored.
    subscript(index: Int) -> Int {
        switch depth {
        case 16: return Int(data[start + index * 2]) << 8 | Int(data[start + index * 2 + 1])
        case 8: return Int(data[start + index])
        default:
            let bit = index * depth
            let shift = 8 - depth - bit % 8
            return Int(data[start + bit / 8] >> UInt8(shift)) & ((1 << depth) - 1)
        }
    }
}

/// How bright a pixel is: each colour type's samples made a Rec. 601 luminance, composited over black.
struct PixelShades {
    let header: PNGHeader
    let palette: [(UInt8, UInt8, UInt8)]
    /// Alpha per palette entry (tRNS); entries past its end are opaque.
    let paletteAlpha: [UInt8]
    /// The grey or RGB sample value tRNS marks fully transparent, if any.
    let transparentColor: (Int, Int, Int)?
    /// The factor that widens a sample to 16 bits: 65535 / (2^depth - 1).
    let widen: Int

    init(file: PNGFile) {
        header = file.header
        palette = file.palette
        let tRNS = file.transparency
        paletteAlpha = header.colorType == 3 ? tRNS : []
        let value = { (index: Int) in Int(tRNS[index * 2]) << 8 | Int(tRNS[index * 2 + 1]) }
        switch (header.colorType, tRNS.count) {
        case (0, 2): transparentColor = (value(0), value(0), value(0))
        case (2, 6): transparentColor = (value(0), value(1), value(2))
        default: transparentColor = nil
        }
        widen = 65_535 / ((1 << header.bitDepth) - 1)
    }

    /// Luminance from 0 to 65535 of pixel `x` in `row`, times its opacity.
    func luminance(_ row: Samples, pixel x: Int) throws(PNGDecodingError) -> Int {
        let channels = header.channels
        switch header.colorType {
        case 0:
            let grey = row[x]
            return isTransparent(grey, grey, grey) ? 0 : grey * widen
        case 2:
            let (r, g, b) = (row[x * 3], row[x * 3 + 1], row[x * 3 + 2])
            return isTransparent(r, g, b) ? 0 : Self.rec601(r * widen, g * widen, b * widen)
        case 3:
            let index = row[x]
            guard index < palette.count else { throw .paletteIndexOutOfRange(index: index, paletteSize: palette.count) }
            let (r, g, b) = palette[index]
            let alpha = index < paletteAlpha.count ? Int(paletteAlpha[index]) : 255
            return Self.rec601(Int(r) * 257, Int(g) * 257, Int(b) * 257) * alpha / 255
        case 4:
            return row[x * channels] * widen * (row[x * channels + 1] * widen) / 65_535
        default:
            let base = x * channels
            let lum = Self.rec601(row[base] * widen, row[base + 1] * widen, row[base + 2] * widen)
            return lum * (row[base + 3] * widen) / 65_535
        }
    }

    /// Whether the samples equal the tRNS colour, which marks them fully transparent.
    private func isTransparent(_ red: Int, _ green: Int, _ blue: Int) -> Bool {
        guard let color = transparentColor else { return false }
        return color.0 == red && color.1 == green && color.2 == blue
    }

    /// Rec. 601 luma weights in thousandths: 0.299 R + 0.587 G + 0.114 B.
    static func rec601(_ red: Int, _ green: Int, _ blue: Int) -> Int {
        (299 * red + 587 * green + 114 * blue) / 1000
    }
}
