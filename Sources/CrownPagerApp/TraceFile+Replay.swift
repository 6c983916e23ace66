import LinuxSystem
import PagerEngine
import PagerTools
import SSD1306

extension TraceFile {
    /// The longest trace line read, in bytes: the whole-file limit traces had before they were
    /// read a line at a time, so no trace that replayed before is refused now. A full 128x64
    /// frame written out byte by byte takes about 5 KiB.
    package static let maximumLineBytes = 1 << 20

    /// Replays the trace at `path` into `replay` a line and a transfer at a time, writing each
    /// frame it makes to `output` as it comes (and dropping it without one); returns the bytes
    /// of the file read and the frames written. Reads at most `byteLimit` bytes, so a second
    /// pass over a trace that is still being appended to reads what the first one did.
    ///
    /// Throws `readLines` when the file cannot be read, `trace` at the first line that is no
    /// trace (with its number), `writeFile` when a frame cannot be written.
    package static func replay(
        _ path: String, into replay: inout TraceReplay, writingTo output: FrameOutput? = nil, byteLimit: Int = .max
    ) throws(CrownPagerError) -> (bytes: Int, frames: Int) {
        let lines: FileLines
        do {
            lines = try FileLines(path: path, maximumLineBytes: maximumLineBytes, byteLimit: byteLimit)
        } catch {
            throw .readLines(error)
        }
        var frames = 0
        // The first line with a record says which panel's trace it is: `cmd`/`data` lines are an
        // SPI panel's (`SPITrace`), anything else i2ctransfer's.
        var isSPI: Bool?
        while let text = try nextLine(of: lines) {
            if isSPI == nil { isSPI = SPITrace.startsSPIRecord(text) }
            if isSPI == true {
                guard let record = try record(in: text, number: lines.lineNumber, path: path),
                    let frame = replay.replay(record.kind, record.bytes[...]), let output
                else { continue }
                try output.write([frame])
                frames += 1
                continue
            }
            var line = I2CTraceLine(text, number: lines.lineNumber)
            while let transfer = try nextTransfer(of: &line, path: path) {
                guard let frame = replay.replay(transfer), let output else { continue }
                try output.write([frame])
                frames += 1
            }
        }
        do { try lines.close() } catch { throw .readLines(error) }
        return (lines.bytesRead, frames)
    }

    /// The file's next line, its error as the app's.
    private static func nextLine(of lines: FileLines) throws(CrownPagerError) -> ArraySlice<UInt8>? {
        do throws(FileLinesError) {
            return try lines.next()
        } catch {
            throw .readLines(error)
        }
    }

    /// The SPI record on a line, its error as the app's.
    private static func record(in line: ArraySlice<UInt8>, number: Int, path: String) throws(CrownPagerError)
        -> (kind: DisplayRecordKind, bytes: [UInt8])?
    {
        do throws(I2CTraceError) {
            return try SPITrace.record(in: line, number: number)
        } catch {
            throw .trace(error, path: path)
        }
    }

    /// The line's next transfer, its error as the app's.
    private static func nextTransfer(of line: inout I2CTraceLine, path: String) throws(CrownPagerError)
        -> I2CTransfer?
    {
        do throws(I2CTraceError) {
            return try line.next()
        } catch {
            throw .trace(error, path: path)
        }
    }
}
