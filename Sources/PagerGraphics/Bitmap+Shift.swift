/// Moving the whole picture by a few pixels, as burn-in care does with static content.
extension Bitmap {
    /// Moves every pixel `right` columns right and `down` rows down (negative: left, up), in place;
    /// what moves off the bitmap is lost and what comes in is dark. Works on the packed pages,
    /// a byte a column and page, so a frame loop shifts its frame without allocating.
    public mutating func shift(right: Int, down: Int) {
        guard right != 0 || down != 0 else { return }
        guard abs(right) < width, abs(down) < height else {
            reset(to: size)
            return
        }
        let width = width
        let pages = pageCount
        bytes.withUnsafeMutableBufferPointer { bytes in
            if right != 0 {
                for page in 0..<pages {
                    let row = page * width
                    if right > 0 {
                        for x in stride(from: width - 1, through: right, by: -1) {
                            bytes[row + x] = bytes[row + x - right]
                        }
                        for x in 0..<right { bytes[row + x] = 0 }
                    } else {
                        for x in 0..<(width + right) { bytes[row + x] = bytes[row + x - right] }
                        for x in (width + right)..<width { bytes[row + x] = 0 }
                    }
                }
            }
            guard down != 0 else { return }
            // Whole pages first, then the bits left over, carried between neighbouring pages.
            let pageStep = abs(down) / 8
            let bits = UInt8(abs(down) % 8)
            for x in 0..<width {
                func byte(_ page: Int) -> UInt8 { page >= 0 && page < pages ? bytes[page * width + x] : 0 }
                if down > 0 {
                    for page in stride(from: pages - 1, through: 0, by: -1) {
                        let upper = byte(page - pageStep)
                        let above = byte(page - pageStep - 1)
                        bytes[page * width + x] = bits == 0 ? upper : (upper << bits) | (above >> (8 - bits))
                    }
                } else {
                    for page in 0..<pages {
                        let lower = byte(page + pageStep)
                        let below = byte(page + pageStep + 1)
                        bytes[page * width + x] = bits == 0 ? lower : (lower >> bits) | (below << (8 - bits))
                    }
                }
            }
        }
        // Rows below a height that is not a whole number of pages stay dark.
        clearPadding()
    }
}
