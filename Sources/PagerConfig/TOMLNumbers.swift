/// TOML's integers (decimal, `0x`, `0o`, `0b`, underscores between digits), floats (fraction,
/// exponent, `inf`, `nan`) and booleans; dates and times are recognised only to be refused.
extension TOMLScanner {
    /// Reads a bare value: a boolean, a number, or (refused) a date or time.
    mutating func readBareValue() throws(TOMLError) -> TOMLValue {
        let start = position
        while let byte = current,
            isBareKeyByte(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: ":")
        {
            position += 1
        }
        let end = position
        let token = Array(bytes[start..<end])
        if looksLikeDateOrTime(token) {
            position = start
            throw error(
                "dates and times are not supported in this configuration: write the value as a string, e.g. \"07:30\"")
        }
        let text = String(decoding: token, as: UTF8.self)
        switch text {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        default: break
        }
        position = start
        guard !token.isEmpty else {
            throw error(
                "expected a value (a string in quotes, a number, true, false, [array] or {table}), found \(describe(current))"
            )
        }
        if let value = try integer(token) {
            position = end
            return .integer(value)
        }
        if let value = try float(token) {
            position = end
            return .float(value)
        }
        if token.allSatisfy({ isBareKeyByte($0) }) {
            throw error("'\(text)' is not a value: put text in quotes, e.g. \"\(text)\"")
        }
        throw error("'\(text)' is not a number")
    }

    private func looksLikeDateOrTime(_ token: [UInt8]) -> Bool {
        // 1979-05-27 (a date) or 07:32 (a time); a time after a date's space is refused with the date.
        if token.count >= 10, token[0..<4].allSatisfy(isDigit), token[4] == UInt8(ascii: "-"),
            token[5..<7].allSatisfy(isDigit), token[7] == UInt8(ascii: "-")
        {
            return true
        }
        return token.count >= 5 && token[0..<2].allSatisfy(isDigit) && token[2] == UInt8(ascii: ":")
    }

    /// An integer, nil when `token` is not shaped like one (it may be a float); errors when it is but is wrong.
    private func integer(_ token: [UInt8]) throws(TOMLError) -> Int64? {
        var body = token[...]
        var negative = false
        if let first = body.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            negative = first == UInt8(ascii: "-")
            body = body.dropFirst()
        }
        var radix: UInt64 = 10
        if body.count > 2, body[body.startIndex] == UInt8(ascii: "0") {
            switch body[body.startIndex + 1] {
            case UInt8(ascii: "x"): radix = 16
            case UInt8(ascii: "o"): radix = 8
            case UInt8(ascii: "b"): radix = 2
            default: break
            }
            if radix != 10 {
                guard body.count == token.count else {
                    throw error("a hexadecimal, octal or binary integer takes no sign")
                }
                body = body.dropFirst(2)
            }
        }
        guard let digits = try digitsWithUnderscores(body, radix: radix) else { return nil }
        if radix == 10, digits.count > 1, digits.first == 0 {
            throw error(
                "leading zeros are not allowed in a decimal integer: write \(String(decoding: token, as: UTF8.self).drop { $0 == "0" })"
            )
        }
        var magnitude: UInt64 = 0
        for digit in digits {
            let (times, overflowA) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, overflowB) = times.addingReportingOverflow(UInt64(digit))
            guard !overflowA, !overflowB else {
                throw error("\(String(decoding: token, as: UTF8.self)) does not fit in a 64-bit integer")
            }
            magnitude = sum
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else {
                throw error("\(String(decoding: token, as: UTF8.self)) does not fit in a 64-bit integer")
            }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else {
            throw error("\(String(decoding: token, as: UTF8.self)) does not fit in a 64-bit integer")
        }
        return Int64(magnitude)
    }

    /// The digit values of `body` in `radix` with underscores removed; nil if a byte is not such a
    /// digit; an error for an underscore that is not between two digits.
    private func digitsWithUnderscores(_ body: ArraySlice<UInt8>, radix: UInt64) throws(TOMLError) -> [UInt8]? {
        guard !body.isEmpty else { return nil }
        var digits: [UInt8] = []
        var previousWasDigit = false
        for byte in body {
            if byte == UInt8(ascii: "_") {
                guard previousWasDigit else { throw error("an underscore in a number must sit between two digits") }
                previousWasDigit = false
                continue
            }
            guard let value = hexDigit(byte), UInt64(value) < radix else { return nil }
            digits.append(value)
            previousWasDigit = true
        }
        guard previousWasDigit else { throw error("an underscore in a number must sit between two digits") }
        return digits
    }

    /// A float such as `3.14`, `-0.5e3` or `6.02e23`; nil when `token` is not shaped like one.
    private func float(_ token: [UInt8]) throws(TOMLError) -> Double? {
        var body = token[...]
        var negative = false
        if let first = body.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            negative = first == UInt8(ascii: "-")
            body = body.dropFirst()
        }
        let exponentIndex = body.firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        let mantissa = body[..<(exponentIndex ?? body.endIndex)]
        let dot = mantissa.firstIndex(of: UInt8(ascii: "."))
        let wholePart = mantissa[..<(dot ?? mantissa.endIndex)]
        let fractionPart = dot.map { mantissa[($0 + 1)...] } ?? []
        guard dot != nil || exponentIndex != nil else { return nil }
        guard let whole = try digitsWithUnderscores(wholePart, radix: 10) else { return nil }
        if whole.count > 1, whole.first == 0 { throw error("leading zeros are not allowed in a float") }
        var fraction: [UInt8] = []
        if dot != nil {
            guard let digits = try digitsWithUnderscores(fractionPart, radix: 10) else {
                throw error("a float needs digits on both sides of the point, e.g. 0.5")
            }
            fraction = digits
        }
        var exponent = 0
        if let exponentIndex {
            var exponentBody = body[(exponentIndex + 1)...]
            var exponentNegative = false
            if let first = exponentBody.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
                exponentNegative = first == UInt8(ascii: "-")
                exponentBody = exponentBody.dropFirst()
            }
            guard let digits = try digitsWithUnderscores(exponentBody, radix: 10) else {
                throw error("a float's exponent needs digits")
            }
            for digit in digits where exponent < 100_000 { exponent = exponent * 10 + Int(digit) }
            if exponentNegative { exponent = -exponent }
        }
        // Decimal digits to a double: exact for the short values a configuration holds.
        var significand: Double = 0
        var scale = exponent - fraction.count
        var kept = 0
        for digit in whole + fraction {
            if kept < 19 {
                significand = significand * 10 + Double(digit)
                if significand != 0 { kept += 1 }
            } else {
                scale += 1
            }
        }
        var value = significand
        while scale > 0, value.isFinite, value != 0 {
            value *= 10
            scale -= 1
        }
        while scale < 0, value != 0 {
            value /= 10
            scale += 1
        }
        return negative ? -value : value
    }
}
