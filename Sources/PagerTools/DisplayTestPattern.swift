import PagerEngine
import PagerGraphics
import SSD1306

/// The picture `crownpager doctor display` shows, to confirm size, offset and rotation by eye.
///
/// A border on the outermost pixels (a column missing at an edge means a column offset, as
/// an SSD1306 setting on an SH1106 shows), a solid mark in the top-left corner and a hollow
/// one in the bottom-right (upside down, they swap), and the panel's name in the middle (on two lines
/// where it is wider than the glass).
package enum DisplayTestPattern {
    /// The pattern for `panel`.
    package static func render(_ panel: SSD1306Panel) -> Bitmap {
        var canvas = Bitmap(width: panel.width, height: panel.height)
        canvas.strokeRect(canvas.bounds)
        let mark = max(4, min(panel.width, panel.height) / 5)
        canvas.fillRect(Rect(x: 2, y: 2, width: mark, height: mark))
        canvas.strokeRect(Rect(x: panel.width - 2 - mark, y: panel.height - 2 - mark, width: mark, height: mark))
        let font = BitmapFont.fixed5x8
        // A name wider than the glass inside its border (sh1107-64x128) goes on two lines at its hyphen.
        let name = panel.name
        let lines: [String] =
            font.width(of: name) <= panel.width - 4 || !name.contains("-")
            ? [name] : name.split(separator: "-", maxSplits: 1).map { String($0) }
        let textTop = (panel.height - lines.count * font.lineHeight) / 2
        for (index, line) in lines.enumerated() {
            canvas.drawText(
                line, in: Rect(x: 0, y: textTop + index * font.lineHeight, width: panel.width, height: font.lineHeight),
                font: font, alignment: .center)
        }
        if panel.height >= 32 {
            canvas.drawText(
                "TOP", in: Rect(x: 0, y: 2, width: panel.width, height: font.lineHeight), font: font, alignment: .center
            )
        }
        return canvas
    }
}
