import PagerSettings

extension ClockFormat {
    /// The days `%A` writes, Sunday first, as `ClockReading.weekday` counts them.
    private static let dayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    /// The months `%B` writes, January first.
    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// The reading in this format.
    package func format(_ reading: ClockReading) -> String {
        let day = Self.dayNames.indices.contains(reading.weekday) ? Self.dayNames[reading.weekday] : "?"
        let month = Self.monthNames.indices.contains(reading.month - 1) ? Self.monthNames[reading.month - 1] : "?"
        // Appended in place: no string made for each directive.
        var out = ""
        var afterPercent = false
        for character in pattern {
            guard afterPercent else {
                if character == "%" { afterPercent = true } else { out.append(character) }
                continue
            }
            afterPercent = false
            switch character {
            case "H": appendTwoDigits(reading.hour, to: &out)
            case "I": appendTwoDigits((reading.hour + 11) % 12 + 1, to: &out)
            case "M": appendTwoDigits(reading.minute, to: &out)
            case "S": appendTwoDigits(reading.second, to: &out)
            case "p": out += reading.hour < 12 ? "AM" : "PM"
            case "d": appendTwoDigits(reading.day, to: &out)
            case "e":
                if reading.day < 10 { out += " " }
                out += String(reading.day)
            case "m": appendTwoDigits(reading.month, to: &out)
            case "y": appendTwoDigits(reading.year % 100, to: &out)
            case "Y": out += String(reading.year)
            case "a": out.append(contentsOf: day.prefix(3))
            case "A": out += day
            case "b": out.append(contentsOf: month.prefix(3))
            case "B": out += month
            default: out.append(character)
            }
        }
        // A "%" that ends the pattern is written as itself.
        if afterPercent { out += "%" }
        return out
    }

    /// `value` in at least two digits, a leading zero before 0 to 9, as `twoDigits` writes it.
    private func appendTwoDigits(_ value: Int, to out: inout String) {
        if value >= 0 && value < 10 { out += "0" }
        out += String(value)
    }
}
