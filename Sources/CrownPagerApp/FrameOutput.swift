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

/// An I2C trace on disk, in i2ctransfer's argument syntax, written as a run goes.
///
/// The file is opened once for the whole run: a FIFO's reader sees one stream to its end, and
/// /dev/null or /dev/stdout is written in place, never replaced (`OutputPath`).
public final class TraceFile {
    private let file: OutputFile
    private static let header =
        "# CrownPager I2C trace: one write transaction per line; replay with i2ctransfer -y <bus> <line>\n"

    /// Starts the trace at `path` (emptied, or created) with its header line.
    public init(path: String) throws(CrownPagerError) {
        try Self.checkFolder(of: path)
        do {
            file = try OutputFile(creating: path)
            try file.write(Array(Self.header.utf8))
        } catch {
            throw .writeFile(error)
        }
    }

    /// Where it is.
    public var path: String { file.path }

    /// Appends `transfers`, one line each.
    public func append(_ transfers: [I2CTransfer]) throws(CrownPagerError) {
        guard !transfers.isEmpty else { return }
        var bytes: [UInt8] = []
        for transfer in transfers {
            bytes += I2CTrace.format(transfer).utf8
            bytes.append(0x0A)
        }
        do { try file.write(bytes) } catch { throw .writeFile(error) }
    }

    /// Ends the trace; an error here means its end may not have been written.
    public func close() throws(CrownPagerError) {
        do { try file.close() } catch { throw .writeFile(error) }
    }

    /// Writes `transfers` to `path` as a whole trace.
    public static func write(_ transfers: [I2CTransfer], to path: String) throws(CrownPagerError) {
        let trace = try TraceFile(path: path)
        try trace.append(transfers)
        try trace.close()
    }

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
}
