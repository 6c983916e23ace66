import LinuxHardware
import MockDisplay
import PagerEngine
import SSD1306

/// Writes headless frames to a folder: `<name>.pbm` and, optionally, `<name>.png`.
public struct FrameOutput {
    /// The folder, created if missing.
    public var directory: String
    /// Whether to write a PNG beside each PBM.
    public var png: Bool
    /// The PNG's pixel size.
    public var scale: Int
    /// The PNG's colours.
    public var palette: OLEDPalette

    /// An output into `directory`.
    public init(directory: String, png: Bool = true, scale: Int = 4, palette: OLEDPalette = .white) {
        self.directory = directory
        self.png = png
        self.scale = scale
        self.palette = palette
    }

    /// Writes every frame, each file atomically, so an interrupted run leaves no half-written picture.
    public func write(_ frames: [RenderedFrame]) throws(CrownPagerError) {
        do {
            try FileSystem.createDirectory(atPath: directory)
            for frame in frames {
                let stem = directory + "/" + frame.name
                let comment = "\(frame.name) at \(frame.time.milliseconds) ms"
                try FileSystem.writeAtomically(FrameFiles.pbm(frame.glass, comment: comment), toPath: stem + ".pbm")
                if png {
                    try FileSystem.writeAtomically(
                        FrameFiles.png(frame.glass, scale: scale, palette: palette), toPath: stem + ".png")
                }
            }
        } catch {
            throw .writeFile(error)
        }
    }
}

/// I2C traces on disk, in i2ctransfer's argument syntax.
public enum TraceFile {
    /// Throws `missingFolder` when the folder `path` would go into does not exist, unless it is
    /// `created`, a folder the run makes itself (render's `--out`): checked before a run starts.
    public static func checkFolder(of path: String, created: String? = nil) throws(CrownPagerError) {
        guard let slash = path.lastIndex(of: "/") else { return }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        if let created, trimmingTrailingSlashes(created) == trimmingTrailingSlashes(folder) { return }
        guard FileSystem.exists(atPath: folder) else {
            throw .missingFolder(what: "trace", path: path, folder: folder)
        }
    }

    private static func trimmingTrailingSlashes(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }

    /// Writes `transfers` to `path`, one transaction per line, replacing the file.
    public static func write(_ transfers: [I2CTransfer], to path: String) throws(CrownPagerError) {
        try checkFolder(of: path)
        var text = "# CrownPager I2C trace: one write transaction per line; replay with i2ctransfer -y <bus> <line>\n"
        for transfer in transfers { text += I2CTrace.format(transfer) + "\n" }
        do {
            try FileSystem.writeAtomically(text, toPath: path)
        } catch {
            throw .writeFile(error)
        }
    }

    /// Appends `transfers` to `path`, one line each: for a long terminal run that records as it goes.
    public static func append(_ transfers: [I2CTransfer], to path: String) throws(CrownPagerError) {
        guard !transfers.isEmpty else { return }
        try checkFolder(of: path)
        do {
            try FileSystem.appendLines(transfers.map { I2CTrace.format($0) }, toPath: path)
        } catch {
            throw .writeFile(error)
        }
    }
}
