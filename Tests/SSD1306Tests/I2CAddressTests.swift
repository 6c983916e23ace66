import SSD1306
import Testing

/// One rule for addresses, on the command line and in the file: a 0x prefix or a letter a-f is
/// hexadecimal, digits alone are decimal, and only 0x03...0x77 are addresses.
@Suite struct I2CAddressTests {
    @Test(arguments: [
        ("0x3c", 0x3C), ("0x3C", 0x3C), ("0X3c", 0x3C), ("3c", 0x3C), ("3C", 0x3C), ("60", 0x3C), ("060", 0x3C),
        ("0x3d", 0x3D), ("3d", 0x3D), ("61", 0x3D), ("0x03", 0x03), ("3", 0x03), ("0x77", 0x77), ("77", 0x4D),
        ("119", 0x77), ("0x48", 0x48), ("48", 0x30), ("0x0a", 0x0A), ("a", 0x0A), ("0x003c", 0x3C),
    ])
    func addressesAsPeopleWriteThem(text: String, value: Int) {
        #expect(I2CAddress(parsing: text)?.rawValue == UInt8(value), "\(text)")
    }

    @Test(arguments: [
        "", "0x", "0X", "x3c", "99x", "3g", "0x3g", "+60", "-60", "0x+3c", " 3c", "3c ", "0x78", "120", "128", "0x7f",
        "0x00", "0", "2", "0x02", "0x100", "256", "99999999999999999999", "３c", "0b11", "3c\u{0}",
    ])
    func anythingElseIsNoAddress(text: String) {
        #expect(I2CAddress(parsing: text) == nil, "\(text)")
    }

    @Test func everyUsableAddressReadsBackInEverySpelling() {
        for value in 0...0x7F {
            let usable = (0x03...0x77).contains(value)
            let hex = String(value, radix: 16)
            #expect(I2CAddress(usable: Int64(value))?.rawValue == (usable ? UInt8(value) : nil))
            #expect(I2CAddress(parsing: "0x" + hex)?.rawValue == (usable ? UInt8(value) : nil), "0x\(hex)")
            #expect(I2CAddress(parsing: "0X" + hex.uppercased())?.rawValue == (usable ? UInt8(value) : nil), "0X\(hex)")
            #expect(I2CAddress(parsing: String(value))?.rawValue == (usable ? UInt8(value) : nil), "\(value)")
            // The address as i2c-tools print it reads back as itself.
            if let address = I2CAddress(usable: Int64(value)) {
                #expect(I2CAddress(parsing: address.description) == address)
            }
        }
        #expect(I2CAddress(usable: -60) == nil && I2CAddress(usable: 0x3C) == .ssd1306Primary)
    }

    @Test func theRuleSaysBothBasesAndTheRange() {
        for words in ["0x03...0x77", "0x3c or 3c (hexadecimal)", "60 (decimal)", "digits alone are read as decimal"] {
            #expect(I2CAddress.rule.contains(words), "\(words)")
        }
    }
}
