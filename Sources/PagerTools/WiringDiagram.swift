import PagerEngine
import PagerGraphics

/// The wiring of `Hardware/README.md` as a picture: pins 1 to 20 of the Pi's 40-pin header,
/// the OLED on I2C1 and the KY-040 encoder on GPIO17, 27 and 22, every wire labelled.
///
/// Drawn with the project's own primitives and fonts (`crownpager wiring-diagram --out FILE`
/// writes it as PNG; `Scripts/dev/render-pictures.sh` regenerates `Hardware/pictures/wiring.png`).
package enum WiringDiagram {
    /// One header pin: its number and what it carries.
    struct Pin {
        let number: Int
        let signal: String
    }

    /// Pins 1 to 20 as (odd, even) rows: pin 1 is at the top left, seen from above with the SD card away from you.
    static let rows: [(Pin, Pin)] = [
        ("3V3", "5V"), ("GPIO2 SDA1", "5V"), ("GPIO3 SCL1", "GND"), ("GPIO4", "GPIO14 TXD"), ("GND", "GPIO15 RXD"),
        ("GPIO17", "GPIO18"), ("GPIO27", "GND"), ("GPIO22", "GPIO23"), ("3V3", "GPIO24"), ("GPIO10", "GND"),
    ].enumerated().map {
        (Pin(number: $0.offset * 2 + 1, signal: $0.element.0), Pin(number: $0.offset * 2 + 2, signal: $0.element.1))
    }

    /// Which wire goes to each used odd pin: the device's pin name and the label on the wire.
    static let wires: [Int: (devicePin: String, label: String)] = [
        1: ("VCC", "3V3 power"), 3: ("SDA", "GPIO2 SDA1"), 5: ("SCL", "GPIO3 SCL1"),
        9: ("GND", "ground"), 11: ("CLK", "GPIO17 (A)"), 13: ("DT", "GPIO27 (B)"), 15: ("SW", "GPIO22 (button)"),
        17: ("+", "3V3"),
    ]

    static let size = Size(width: 440, height: 262)
    static let top = 56
    static let pitch = 18
    static let oddX = 262
    static let evenX = 282
    static let deviceRight = 120

    static func rowY(_ pin: Int) -> Int { top + (pin - 1) / 2 * pitch }

    /// The diagram, lit pixels as ink.
    package static func render() -> Bitmap {
        var canvas = Bitmap(width: size.width, height: size.height)
        let font = BitmapFont.fixed6x10
        let small = BitmapFont.fixed5x8
        canvas.drawText("CrownPager wiring: OLED on I2C1, knob on GPIO17/27/22", at: Point(x: 6, y: 4), font: font)
        canvas.drawHorizontalLine(x: 6, y: 16, length: size.width - 12)
        drawHeader(into: &canvas, font: font, small: small)
        // The OLED: VCC, SDA and SCL straight across; GND from pin 6 over the top of the header.
        let gndY = rowY(1) - 14
        drawDevice(
            ["OLED", "SSD1306", "0x3C"], pins: [("GND", gndY), ("VCC", rowY(1)), ("SDA", rowY(3)), ("SCL", rowY(5))],
            top: gndY - 8, bottom: rowY(5) + 10, into: &canvas, font: font, small: small)
        let turn = evenX + 16
        canvas.drawHorizontalLine(x: evenX + 7, y: rowY(5), length: turn - evenX - 6)
        canvas.drawVerticalLine(x: turn, y: gndY, length: rowY(5) - gndY + 1)
        canvas.drawHorizontalLine(x: deviceRight, y: gndY, length: turn - deviceRight + 1)
        canvas.drawText("ground (pin 6)", at: Point(x: deviceRight + 8, y: gndY - 10), font: small)
        // The encoder: five straight wires.
        drawDevice(
            ["KY-040", "encoder"], pins: [9, 11, 13, 15, 17].map { (wires[$0]?.devicePin ?? "", rowY($0)) },
            top: rowY(9) - 12, bottom: rowY(17) + 10, into: &canvas, font: font, small: small)
        canvas.strokeCircle(center: Point(x: 40, y: rowY(15) + 2), radius: 11)
        canvas.fillCircle(center: Point(x: 40, y: rowY(15) + 2), radius: 3)
        for (pin, wire) in wires {
            canvas.drawHorizontalLine(x: deviceRight, y: rowY(pin), length: oddX - 7 - deviceRight)
            canvas.drawText(wire.label, at: Point(x: deviceRight + 8, y: rowY(pin) - 9), font: small)
        }
        let notes = ["GPIO numbers are BCM numbers, not pin numbers.", "3V3 only: the Pi's GPIOs are not 5V tolerant."]
        for (index, note) in notes.enumerated() {
            canvas.drawText(note, at: Point(x: 6, y: size.height - 24 + index * 11), font: small)
        }
        return canvas
    }

    private static func drawHeader(into canvas: inout Bitmap, font: BitmapFont, small: BitmapFont) {
        canvas.drawText("Pi header", at: Point(x: oddX - 10, y: top - 36), font: small)
        canvas.strokeRoundedRect(
            Rect(x: oddX - 10, y: top - 10, width: evenX - oddX + 20, height: pitch * 10 + 2), radius: 3)
        let used: Set<Int> = Set(wires.keys).union([6])
        for (odd, even) in rows {
            for (pin, x) in [(odd, oddX), (even, evenX)] {
                let box = Rect(x: x - 7, y: rowY(pin.number) - 7, width: 15, height: 15)
                let label = String(pin.number)
                let origin = Point(x: box.x + (box.width - small.width(of: label)) / 2 + 1, y: box.y + 4)
                if used.contains(pin.number) {
                    canvas.fillRect(box)
                    canvas.drawText(label, at: origin, font: small, ink: .off)
                } else {
                    canvas.strokeRect(box)
                    canvas.drawText(label, at: origin, font: small)
                }
            }
            canvas.drawText(even.signal, at: Point(x: evenX + 24, y: rowY(even.number) - 4), font: small)
            if wires[odd.number] == nil {
                canvas.drawText(
                    odd.signal, at: Point(x: oddX - 12 - small.width(of: odd.signal), y: rowY(odd.number) - 4),
                    font: small)
            }
        }
    }

    static func drawDevice(
        _ name: [String], pins: [(String, Int)], top: Int, bottom: Int, into canvas: inout Bitmap, font: BitmapFont,
        small: BitmapFont
    ) {
        canvas.strokeRoundedRect(Rect(x: 6, y: top, width: deviceRight - 6, height: bottom - top), radius: 4)
        for (index, line) in name.enumerated() {
            canvas.drawText(line, at: Point(x: 12, y: top + 4 + index * 11), font: index == 0 ? font : small)
        }
        for (label, y) in pins {
            canvas.drawText(label, at: Point(x: deviceRight - 4 - small.width(of: label), y: y - 4), font: small)
            canvas.fillRect(Rect(x: deviceRight - 1, y: y - 1, width: 3, height: 3))
        }
    }
}
