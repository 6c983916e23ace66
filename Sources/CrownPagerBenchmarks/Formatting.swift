import PagerEngine

/// `value` with one digit after the point, rounded, for tables of figures.
func fixed1(_ value: Double) -> String { fixed(value, 1) }

/// `value` with two digits after the point, rounded, for tables of figures.
func fixed2(_ value: Double) -> String { fixed(value, 2) }

/// `text` filled with spaces on the right to `width`, for a table's column.
func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

/// `text` filled with spaces on the left to `width`, for a table's column of figures.
func leftPad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}
