import PagerSettings

extension ClockFormat {

    /// The reading in this format.
    package func format(_ reading: ClockReading) -> String {
        let days = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September",
            "October", "November", "December",
        ]
        let day = days.indices.contains(reading.weekday) ? days[reading.weekday] : "?"
        let month = months.indices.contains(reading.month - 1) ? months[reading.month - 1] : "?"
        var out = ""
        var characters = pattern.makeIterator()
        while let character = characters.next() {
            guard character == "%", let directive = characters.next() else {
                out.append(character)
                continue
            }
            switch directive {
            case "H": out += twoDigits(reading.hour)
            case "I": out += twoDigits((reading.hour + 11) % 12 + 1)
            case "M": out += twoDigits(reading.minute)
            case "S": out += twoDigits(reading.second)
            case "p": out += reading.hour < 12 ? "AM" : "PM"
            case "d": out += twoDigits(reading.day)
            case "e": out += reading.day < 10 ? " \(reading.day)" : "\(reading.day)"
            case "m": out += twoDigits(reading.month)
            case "y": out += twoDigits(reading.year % 100)
            case "Y": out += String(reading.year)
            case "a": out += String(day.prefix(3))
            case "A": out += day
            case "b": out += String(month.prefix(3))
            case "B": out += month
            default: out.append(directive)
            }
        }
        return out
    }
}
