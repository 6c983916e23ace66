import PagerCore
import PagerGraphics

/// Indicator images the user names: a built-in name or a PBM, XBM or PNG file.
package enum IndicatorImageFile {
    /// The built-in image `spec` names, or the image in the file at path `spec` (read by `files`), checked to fit `cell`.
    ///
    /// A name without a slash or a dot is a built-in (`location`, `house`, `bookmark`, `star`).
    /// A file starting with `P1` or `P4` is PBM, with the PNG signature PNG, anything else XBM. Every failure
    /// names the file and says what to do.
    package static func load(_ spec: String, cell: Size, from files: some FileReading) throws(ImageFileError)
        -> IndicatorImage
    {
        let image: IndicatorImage
        if !spec.contains("/"), !spec.contains(".") {
            do throws(IndicatorImageError) {
                image = try IndicatorImage.builtIn(named: spec)
            } catch {
                throw ImageFileError(error.description)
            }
        } else {
            image = IndicatorImage(name: spec, bitmap: try decodeFile(spec, from: files))
        }
        do throws(IndicatorImageError) {
            return try image.validated(fitting: cell)
        } catch {
            throw ImageFileError(error.description)
        }
    }

    private static func decodeFile(_ path: String, from files: some FileReading) throws(ImageFileError) -> Bitmap {
        let bytes: [UInt8]
        do throws(FileReadError) {
            bytes = try files.bytes(atPath: path, maximumBytes: 1 << 16)
        } catch {
            throw ImageFileError("cannot read indicator image: " + error.description, kind: .unreadable)
        }
        return try PageImageFile.decode(bytes, path: path)
    }
}

extension Configuration {
    /// The indicator's style: its dots, side and background, with the images it names (a built-in
    /// name, or a file `files` reads, relative to the configuration's folder) loaded and checked to
    /// fit the indicator's cell. Throws the first image that cannot be used.
    package func indicatorStyle(files: some FileReading) throws(ImageFileError) -> PageIndicatorStyle {
        var style = PageIndicatorStyle(
            maximumVisibleDots: indicator.maximumDots, hidesForSinglePage: indicator.hidesForSinglePage,
            crownSide: crown.side, backgroundStyle: indicator.style)
        if let image = indicator.image {
            style.images.preferredIndicatorImage = try IndicatorImageFile.load(
                resolve(image), cell: style.cellSize, from: files)
        }
        for (index, page) in pages.enumerated() {
            guard let image = page.indicatorImage else { continue }
            style.images.setIndicatorImage(
                try IndicatorImageFile.load(resolve(image), cell: style.cellSize, from: files), forPage: index)
        }
        return style
    }
}
