import CrownVocabulary
import GlassViews
import LinuxSystem
import PagerGraphics
import SSD1306

/// `run --record` and `render --gif`: what the glass showed, as an animated GIF written while the run goes.
///
/// It keeps an emulator of its own and feeds it the transfers the panel accepted, so it records
/// a real panel's glass as faithfully as the mock's. A file that cannot be written stops the
/// recording with one warning, never the pager.
package final class GlassRecorder {
    private var emulator: SSD1306Emulator
    private var recording: GlassRecording
    private var file: OutputFile?
    /// Why the recording stopped early, if it did.
    package private(set) var failure: FileSystemError?

    /// A recording into `path` (created, or emptied) of `panel` at `address`, each pixel `scale` x `scale`.
    package init(path: String, panel: SSD1306Panel, address: I2CAddress, scale: Int, palette: OLEDPalette)
        throws(CrownPagerError)
    {
        emulator = SSD1306Emulator(panel: panel, address: address)
        recording = GlassRecording(width: panel.width, height: panel.height, scale: scale, palette: palette)
        do { file = try OutputFile(creating: path) } catch { throw .writeFile(error) }
    }

    /// Where it records.
    package var path: String? { file?.path }

    /// Pictures written so far, and pictures that gave their place to the next (shown under 20 ms).
    package var counts: (written: Int, merged: Int) { (recording.framesWritten, recording.framesMerged) }

    /// Takes the display records the panel accepted at `instant`.
    package func record(_ records: DisplayBatch, at instant: Timestamp) {
        guard file != nil, !records.isEmpty else { return }
        emulator.send(records)
        write(recording.add(emulator.glass, at: instant))
    }

    /// Takes a picture of the glass as it is (render's frames come already drawn).
    package func record(glass: Bitmap, at instant: Timestamp) {
        guard file != nil else { return }
        write(recording.add(glass, at: instant))
    }

    /// Ends the file at `instant`; later transfers are not recorded. Throws when its end could not be written.
    package func finish(at instant: Timestamp) throws(CrownPagerError) {
        write(recording.finish(at: instant))
        guard let open = file else {
            if let failure { throw .writeFile(failure) }
            return
        }
        file = nil
        do { try open.close() } catch { throw .writeFile(error) }
    }

    private func write(_ bytes: [UInt8]) {
        guard let open = file, !bytes.isEmpty else { return }
        do throws(FileSystemError) {
            try open.write(bytes)
        } catch {
            failure = error
            file = nil
            OperatorLog.warning("crownpager: warning: stopped recording: \(error)")
        }
    }
}
