import LinuxSystem
import PagerCore
import PagerEngine
import PagerGraphics
import PagerSettings

/// The files a configuration names, read from this machine's file system for the engine.
struct FileSystemFiles: FileReading {
    /// At most `maximumBytes` of the file at `path`; the error names the file and the cause.
    func bytes(atPath path: String, maximumBytes: Int) throws(FileReadError) -> [UInt8] {
        do throws(FileSystemError) {
            return try FileSystem.readFile(atPath: path, maximumBytes: maximumBytes)
        } catch {
            throw FileReadError(error.description)
        }
    }
}

extension IndicatorImageFile {
    /// The built-in image `spec` names, or the image in the file at path `spec`, checked to fit `cell`
    /// (`load(_:cell:from:)` with the file system).
    package static func load(_ spec: String, cell: Size) throws(CrownPagerError) -> IndicatorImage {
        do throws(ImageFileError) {
            return try load(spec, cell: cell, from: FileSystemFiles())
        } catch {
            throw .image(error)
        }
    }
}

extension RunOverrides {
    /// The indicator style of `configuration` (already overridden), with the images given on the command line.
    package func indicatorStyle(_ configuration: Configuration) throws(CrownPagerError) -> PageIndicatorStyle {
        var style = try configuration.indicatorStyle()
        if let indicatorImage { style.images.preferredIndicatorImage = indicatorImage }
        for (page, image) in pageImages { style.images.setIndicatorImage(image, forPage: page) }
        return style
    }
}
