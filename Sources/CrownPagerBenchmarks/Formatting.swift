import PagerEngine

/// `value` with one digit after the point, rounded, for tables of figures.
func fixed1(_ value: Double) -> String { fixed(value, 1) }

/// `value` with two digits after the point, rounded, for tables of figures.
func fixed2(_ value: Double) -> String { fixed(value, 2) }
