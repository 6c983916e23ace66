import GlassViews
import PagerGraphics

/// The glass as Home Assistant's MQTT camera (`[mqtt] camera_interval`): the PNG of the frame the
/// engine hands (`Effects.glassPicture`; `FrameFiles.png`: each pixel `scale` x `scale`, in the
/// palette's two colours), and which of them the broker has. When to take one is the engine's
/// (`GlassCamera`); this only encodes and remembers.
struct MQTTCamera {
    /// Each glass pixel as a square this wide: 2 makes a 128 x 64 panel 256 x 128, 4,310 bytes
    /// (the PNG encoder stores its rows unpacked: size goes with the square of the scale). A
    /// dashboard card scales it up smoothed, so 1 blurs the letters; 4 would be 16,726 bytes a picture.
    static let scale = 2

    /// The lit and unlit colours (`crownpager run --palette`, white by default).
    let palette: OLEDPalette
    /// The last picture taken.
    private var latest: [UInt8]?
    /// The picture the broker has from this connection; nil: none yet.
    private var published: [UInt8]?

    init(palette: OLEDPalette) { self.palette = palette }

    /// The engine's picture of the glass.
    mutating func take(_ glass: Bitmap) { latest = FrameFiles.png(glass, scale: Self.scale, palette: palette) }

    /// The last picture when the broker does not have it yet (marked as published); nil otherwise.
    /// A frame that redrew the same pixels (after a recovery) leaves nothing to publish.
    mutating func unpublished() -> [UInt8]? {
        guard let latest, latest != published else { return nil }
        published = latest
        return latest
    }

    /// A new connection: the last picture goes out again (the broker may have lost it).
    mutating func connectionMade() { published = nil }
}
