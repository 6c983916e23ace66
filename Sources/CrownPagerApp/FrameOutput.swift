import GlassViews
import LinuxSystem
import PagerEngine
import PagerSettings
import PagerTools
import SSD1306

/// Writes headless frames to a folder: `<name>.pbm` and, optionally, `<name>.png`.
package struct FrameOutput {
    /// The folder, created if missing.
    package var directory: String
    /// Whether to write a PNG beside each PBM.
    package var png: Bool
    /// The PNG's pixel size.
    package var scale: Int
    /// The PNG's colours.
    package var palette: OLEDPalette

    /// An output into `directory`.
    package init(directory: String, png: Bool = true, scale: Int = 4, palette: OLEDPalette = .white) {
        self.directory = directory
        self.png = png
        self.scale = scale
        self.palette = palette
    }

    /// Writes every frame, each file atomically, so an interrupted run leaves no half-written picture.
    package func write(_ frames: [RenderedFrame]) throws(CrownPagerError) {
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

/// A display trace on disk, written as a run goes: for a panel on I2C in i2ctransfer's argument
/// syntax (`I2CTrace`), for one on SPI as `cmd` and `data` lines (`SPITrace`).
///
/// The file is opened once for the whole run: a FIFO's reader sees one stream to its end, and
/// /dev/null or /dev/stdout is written in place, never replaced (`OutputPath`).
package final class TraceFile {
    /// How the display's records are written.
    package enum Format: Hashable, Sendable {
        /// As the I2C transfers that carry them to `address`.
        case i2c(I2CAddress)
        /// As SPI records, D/C# beside the bytes.
        case spi

        /// The format of `display`'s bus: SPI lines for a panel on SPI, else transfers at its address.
        package static func of(_ display: DisplaySection) -> Format {
            display.spi == nil ? .i2c(display.address) : .spi
        }
    }

    private let file: OutputFile
    /// How records are written.
    package let format: Format

    /// The trace's first line.
    private var header: String {
        switch format {
        case .i2c:
            return "# CrownPager I2C trace: one write transaction per line; replay with i2ctransfer -y <bus> <line>\n"
        case .spi:
            return
                "# CrownPager SPI trace: one record per line, cmd (D/C# low) or data (D/C# high); replay with crownpager replay\n"
        }
    }

    /// Starts the trace at `path` (emptied, or created) in `format`, with its header line.
    package init(path: String, format: Format) throws(CrownPagerError) {
        try Self.checkFolder(of: path)
        self.format = format
        do {
            file = try OutputFile(creating: path)
            try file.write(Array(header.utf8))
        } catch {
            throw .writeFile(error)
        }
    }

    /// Where it is.
    package var path: String { file.path }

    /// Appends the display's `records` in the trace's format, one line each.
    package func append(_ records: DisplayBatch) throws(CrownPagerError) {
        guard !records.isEmpty else { return }
        let text: String
        switch format {
        case .i2c(let address): text = I2CTrace.format(records.transfers(at: address))
        case .spi: text = SPITrace.format(records)
        }
        do { try file.write(Array(text.utf8)) } catch { throw .writeFile(error) }
    }

    /// Ends the trace; an error here means its end may not have been written.
    package func close() throws(CrownPagerError) {
        do { try file.close() } catch { throw .writeFile(error) }
    }

    /// Writes `records` to `path` as a whole trace in `format`.
    package static func write(_ records: DisplayBatch, format: Format, to path: String) throws(CrownPagerError) {
        let trace = try TraceFile(path: path, format: format)
        try trace.append(records)
        try trace.close()
    }

    /// Throws `missingFolder` when the folder `path` would go into does not exist, unless it is
    /// `created`, a folder the run makes itself (render's `--out`): checked before a run starts.
    package static func checkFolder(of path: String, created: String? = nil) throws(CrownPagerError) {
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
