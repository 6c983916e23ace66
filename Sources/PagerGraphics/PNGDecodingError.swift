/// Why a PNG image could not be read.
public enum PNGDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file does not start with the eight-byte PNG signature.
    case notPNG
    /// The file ends early; the detail says where.
    case truncated(String)
    /// A chunk's stored CRC does not match its type and data: the file is damaged.
    case badChunkCRC(chunk: String, offset: Int)
    /// A chunk the image needs is absent or out of place (IHDR first, PLTE for palette images, IDAT).
    case missingChunk(String, detail: String)
    /// A chunk marked critical that this decoder does not know, so cannot safely skip.
    case unknownCriticalChunk(String)
    /// A chunk's content is invalid (IHDR fields, PLTE length, tRNS length).
    case invalidChunk(String, detail: String)
    /// The size is zero or a side is larger than `PNG.maximumSide`.
    case unsupportedSize(width: Int, height: Int)
    /// The pixel data would take more than `PNG.maximumImageDataBytes` to decode.
    case tooLarge(bytes: Int, limit: Int)
    /// The compressed pixel data is corrupt.
    case corruptImageData(InflateError)
    /// The pixel data inflates to fewer bytes than the size needs.
    case imageDataTooShort(expected: Int, found: Int)
    /// A scanline starts with a filter type other than 0...4.
    case badFilterType(UInt8, row: Int)
    /// A palette image uses an index past the end of its PLTE.
    case paletteIndexOutOfRange(index: Int, paletteSize: Int)

    /// A sentence for the operator.
    public var description: String {
        switch self {
        case .notPNG: return "not a PNG image (the file does not start with the PNG signature)"
        case .truncated(let detail): return "the PNG file ends early: \(detail)"
        case .badChunkCRC(let chunk, let offset):
            return "bad CRC in chunk \(chunk) at offset \(offset): the file is damaged"
        case .missingChunk(let chunk, let detail): return "missing \(chunk) chunk: \(detail)"
        case .unknownCriticalChunk(let chunk):
            return "unknown critical chunk \(chunk): the image cannot be read without it"
        case .invalidChunk(let chunk, let detail): return "invalid \(chunk) chunk: \(detail)"
        case .unsupportedSize(let w, let h):
            return "unsupported PNG size \(w)x\(h) (each side must be 1 to \(PNG.maximumSide))"
        case .tooLarge(let bytes, let limit):
            return
                "the PNG is too large to decode: its pixels take \(bytes) bytes, over the limit of \(limit); scale it down"
        case .corruptImageData(let error): return "corrupt compressed image data (IDAT): \(error)"
        case .imageDataTooShort(let expected, let found):
            return "the image data ends early: \(found) of \(expected) bytes after decompression"
        case .badFilterType(let type, let row): return "scanline \(row) has filter type \(type) (only 0 to 4 exist)"
        case .paletteIndexOutOfRange(let index, let size):
            return "a pixel uses palette entry \(index), but the palette has \(size) entries"
        }
    }
}
