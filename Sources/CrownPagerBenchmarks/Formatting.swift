/// `value` with one digit after the point, rounded, for tables of figures.
func fixed1(_ value: Double) -> String { fixed(value, places: 1) }

/// `value` with two digits after the point, rounded, for tables of figures.
func fixed2(_ value: Double) -> String { fixed(value, places: 2) }

/// `value` with `places` digits after the point, rounded half away from zero.
func fixed(_ value: Double, places: Int) -> String {
    guard value.isFinite else { return "-" }
    var scale = 1
    for _ in 0..<places { scale *= 10 }
    let scaled = Int((abs(value) * Double(scale)).rounded())
    var fraction = String(scaled % scale)
    while fraction.count < places { fraction = "0" + fraction }
    let sign = value < 0 && scaled != 0 ? "-" : ""
    return places > 0 ? "\(sign)\(scaled / scale).\(fraction)" : "\(sign)\(scaled)"
}
