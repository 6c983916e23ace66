import LinuxHardware
import PagerCore
import PagerGraphics

/// Indicator images the user names on the command line: a built-in name or a PBM, XBM or PNG file.
public enum IndicatorImageFile {
    /// The built-in image `spec` names, or the image in the file at path `spec`, checked to fit `cell`.
    ///
    /// A name without a slash or a dot is a built-in (`location`, `house`, `bookmark`, `star`).
    /// A file starting with `P1` or `P4` is PBM, with the PNG signature PNG, anything else XBM. Every failure
    /// names the file and says what to do.
    public static func load(_ spec: String, cell: Size) throws(AppError) -> IndicatorImage {
        let image: IndicatorImage
        if !spec.contains("/"), !spec.contains(".") {
            do throws(IndicatorImageError) {
                image = try IndicatorImage.builtIn(named: spec)
            } catch {
                throw AppError(error.description)
            }
        } else {
            image = IndicatorImage(name: spec, bitmap: try decodeFile(spec))
        }
        do throws(IndicatorImageError) {
            return try image.validated(fitting: cell)
        } catch {
            throw AppError(error.description)
        }
    }

    private static func decodeFile(_ path: String) throws(AppError) -> Bitmap {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(atPath: path, maximumBytes: 1 << 16)
        } catch {
            throw AppError("cannot read indicator image: \(error)")
        }
        return try PageImageFile.decode(bytes, path: path)
    }
}
