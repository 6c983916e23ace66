/// A pushed page's value as the state of the Home Assistant entity announced for it, within the
/// rules Home Assistant's MQTT platforms check a state against (`homeassistant/components/mqtt`):
///
/// - `text`: the state's length, in Unicode code points (Python's `len`), at most the entity's
///   `max`, which the pager announces as `textMaximum` (255, the platform's default); a longer
///   state is refused with a warning and the old one kept.
/// - `number`: the state a number (Python's `float`) within the announced `min` and `max`; one
///   outside is refused with `Invalid value for number…`.
///
/// The glass shows the whole value in either case; the state is what the entity can hold, and
/// `complete` says whether that is all of it (its JSON attributes carry the rest).
package struct EntityState: Hashable, Sendable {
    /// The state to publish.
    package var state: String
    /// The entity's JSON attributes: for a text, its length in characters and whether it was cut;
    /// for a number, the value as pushed and whether it was within the range.
    package var attributes: String
    /// Whether the state is the whole value (not cut, not clamped).
    package var complete: Bool

    /// The `max` announced for a pushed text page's `text` entity, in code points.
    package static let textMaximum = 255
    /// What ends a text cut short.
    package static let ellipsis: Character = "\u{2026}"

    /// `value` as a `text` entity's state: whole when it has at most `maximum` code points, else
    /// cut after the last whole grapheme cluster that leaves room for an ellipsis, which ends it.
    package static func text(_ value: String, maximum: Int = textMaximum) -> Self {
        let length = value.unicodeScalars.count
        guard length > maximum else {
            return Self(state: value, attributes: "{\"characters\":\(value.count),\"cut\":false}", complete: true)
        }
        var kept = ""
        var scalars = 0
        for cluster in value {
            let size = cluster.unicodeScalars.count
            guard scalars + size <= maximum - 1 else { break }
            kept.append(cluster)
            scalars += size
        }
        kept.append(ellipsis)
        return Self(state: kept, attributes: "{\"characters\":\(value.count),\"cut\":true}", complete: false)
    }

    /// `number` (a gauge's pushed value, finite) as a `number` entity's state within
    /// `minimum`...`maximum`: clamped to the nearer end when outside, written as a plain decimal
    /// (`1e3` is `1000`).
    package static func number(_ number: Double, minimum: Double, maximum: Double) -> Self {
        let clamped = Swift.min(Swift.max(number, minimum), maximum)
        let inRange = clamped == number
        return Self(
            state: decimal(clamped),
            attributes: "{\"value\":\(decimal(number)),\"in_range\":\(inRange)}", complete: inRange)
    }

    /// `value` in plain decimal digits: whole numbers without a fraction, others with up to six
    /// places and no trailing zeros; no exponent, which JSON allows and Python reads, but a
    /// person reading the state does not expect. Beyond 10^12 Swift's shortest form, which may have one.
    static func decimal(_ value: Double) -> String {
        guard abs(value) < 1e12 else { return "\(value)" }
        if value == value.rounded() { return String(Int64(value)) }
        let negative = value < 0
        let micro = Int64((abs(value) * 1_000_000).rounded())
        guard micro != 0 else { return "0" }
        var fraction = String(micro % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        let whole = String(micro / 1_000_000)
        return (negative ? "-" : "") + whole + (fraction.isEmpty ? "" : "." + fraction)
    }
}
