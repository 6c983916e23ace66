import MockDisplay
import PagerGraphics
import SSD1306

/// The glass as Home Assistant's MQTT camera (`[mqtt] camera_interval`): an emulator that takes
/// the records the panel takes, since a real panel's glass cannot be read back, and the PNG of
/// its glass (`FrameFiles.png`: each pixel `scale` x `scale`, in the palette's two colours).
/// When to publish is the engine's (`GlassCamera`); this only draws and remembers the last picture.
struct MQTTCamera {
    /// Each glass pixel as a square this wide: 2 makes a 128 x 64 panel 256 x 128, 4,310 bytes
    /// (the PNG encoder stores its rows unpacked: size goes with the square of the scale). A
    /// dashboard card scales it up smoothed, so 1 blurs the letters; 4 would be 16,726 bytes a picture.
    static let scale = 2

    /// The panel's glass, from the same records the panel gets.
    private var emulator: SSD1306Emulator
    /// The lit and unlit colours (`crownpager run --palette`, white by default).
    let palette: OLEDPalette
    /// The PNG last published; nil: none since the connection was made.
    private var published: [UInt8]?

    init(panel: SSD1306Panel, address: I2CAddress, palette: OLEDPalette) {
        emulator = SSD1306Emulator(panel: panel, address: address)
        self.palette = palette
    }

    /// Takes the records the panel took.
    mutating func send(_ records: DisplayBatch) { emulator.send(records) }

    /// The glass as PNG when it differs from the last published (a frame that changed only the
    /// contrast, or the rows off the glass, leaves the picture as it was); nil otherwise.
    mutating func picture() -> [UInt8]? {
        let png = FrameFiles.png(emulator.glass, scale: Self.scale, palette: palette)
        guard png != published else { return nil }
        published = png
        return png
    }

    /// A new connection: the next picture goes out even if it is the last one (the broker may
    /// have lost it).
    mutating func connectionMade() { published = nil }
}
