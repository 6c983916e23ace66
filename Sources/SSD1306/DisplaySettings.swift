/// How the glass is mounted: the picture turns through the controller's own remaps, at no cost.
public enum DisplayRotation: Hashable, Sendable, CaseIterable {
    /// The module's intended setting: Segment Re-map A1h, COM scan C8h.
    case normal
    /// Upside down: A0h and C0h mirror both axes, which turns the picture by 180 degrees.
    case rotated180

    /// The rotation in degrees, 0 or 180.
    public var degrees: Int { self == .normal ? 0 : 180 }

    /// The rotation for `degrees`; nil for anything but 0 and 180.
    public init?(degrees: Int) {
        switch degrees {
        case 0: self = .normal
        case 180: self = .rotated180
        default: return nil
        }
    }
}

/// A brightness that dims for real: contrast alone barely dims an OLED (u8g2 #98, luma #281),
/// so the scale also shortens the pre-charge period and lowers VCOMH, as the better drivers do.
public struct DisplayBrightness: Hashable, Sendable {
    /// 0 (dimmest) to 100 (brightest), clamped.
    public let percent: Int

    /// A brightness of `percent`, clamped to 0...100.
    public init(percent: Int) { self.percent = min(max(percent, 0), 100) }

    /// Set Contrast Control (81h): proportional, 00h to FFh.
    public var contrast: UInt8 { UInt8(percent * 255 / 100) }

    /// Set Pre-charge Period (D9h): phase 1 one DCLK; phase 2, which charges the pixel, grows
    /// from 1 to 15 DCLKs (F1h at 100, the internal-pump setting of the datasheet's example).
    public var prechargePeriod: (phase1: UInt8, phase2: UInt8) { (1, UInt8(1 + percent * 14 / 100)) }

    /// Set VCOMH Deselect Level (DBh): ~0.65 VCC (00h) for the dimmest quarter, up to 40h.
    public var vcomhDeselectLevel: UInt8 {
        switch percent {
        case ..<25: return 0x00
        case ..<50: return 0x20
        case ..<75: return 0x30
        default: return 0x40
        }
    }

    /// The three commands that set it.
    public var commands: [SSD1306Command] {
        let precharge = prechargePeriod
        return [
            .setContrast(contrast), .setPrechargePeriod(phase1: precharge.phase1, phase2: precharge.phase2),
            .setVCOMHDeselectLevel(vcomhDeselectLevel),
        ]
    }
}

/// What the operator chose about the picture, applied by the init sequence and kept across re-initialisations.
public struct DisplaySettings: Hashable, Sendable {
    /// Upright or upside down.
    public var rotation: DisplayRotation
    /// A brightness replacing the panel's default contrast, pre-charge and VCOMH; nil keeps them.
    public var brightness: DisplayBrightness?
    /// A contrast (81h) applied after `brightness`; nil keeps what the brightness or panel sets.
    public var contrast: UInt8?
    /// Lit pixels dark and dark pixels lit (A7h).
    public var isInverted: Bool

    /// Settings; the defaults are the panel's own.
    public init(
        rotation: DisplayRotation = .normal, brightness: DisplayBrightness? = nil, contrast: UInt8? = nil,
        isInverted: Bool = false
    ) {
        self.rotation = rotation
        self.brightness = brightness
        self.contrast = contrast
        self.isInverted = isInverted
    }
}
