import PagerCore
import PagerGraphics

/// Where a configured page draws what it shows: a box for each line of text and for each
/// graphic, in the page's own coordinates. The page draws from it, and tests check it: every
/// text's ink inside its box, every box inside the page.
package struct PageLayout: Hashable, Sendable {
    /// The fonts a page draws text in.
    package enum Face: Hashable, Sendable, CaseIterable {
        /// misc-fixed 10x20, for a clock's time and a gauge's number where there is room.
        case large
        /// misc-fixed 6x10 (with the fallback glyphs when the page has them): titles and lines.
        case body
        /// misc-fixed 5x8, where 6x10 does not fit.
        case small

        /// The bitmap font of the face (the body's first font when it draws through a chain).
        package var font: BitmapFont {
            switch self {
            case .large: return .fixed10x20
            case .body: return .fixed6x10
            case .small: return .fixed5x8
            }
        }

        /// `font.width(of:)`, measured in the built-in font itself rather than a copy of it
        /// (a copy retains and releases the font's tables: a clock measures every second).
        package func width(of text: String) -> Int {
            switch self {
            case .large: return BitmapFont.fixed10x20.width(of: text)
            case .body: return BitmapFont.fixed6x10.width(of: text)
            case .small: return BitmapFont.fixed5x8.width(of: text)
            }
        }

        /// `font.lineHeight`, read without copying the font.
        package var lineHeight: Int {
            switch self {
            case .large: return BitmapFont.fixed10x20.lineHeight
            case .body: return BitmapFont.fixed6x10.lineHeight
            case .small: return BitmapFont.fixed5x8.lineHeight
            }
        }
    }

    /// One line of text and the box it is given.
    package struct Text: Hashable, Sendable {
        /// The text as drawn: already cut, with an ellipsis, when the whole did not fit.
        package var text: String
        /// The box the line is given.
        package var box: Rect
        /// The pixels the line's glyphs take: its measured width, aligned in the box, a line high.
        package var ink: Rect
        /// The font it is drawn in.
        package var face: Face
    }

    /// What a graphic is, for tests and messages.
    package enum GraphicKind: Hashable, Sendable {
        /// The rule under the title.
        case rule
        /// A gauge's bar, a dial's half circle, a picture.
        case bar, dial, image
    }

    /// One graphic and the box it is drawn in.
    package struct Graphic: Hashable, Sendable {
        /// What it is.
        package var kind: GraphicKind
        /// The pixels it may touch.
        package var box: Rect
    }

    /// The size of the page: the content area's width, and as tall as the page.
    package var size: Size
    /// Every line of text, top to bottom.
    package var texts: [Text] = []
    /// Every graphic.
    package var graphics: [Graphic] = []
    /// Columns kept free on the right for the renderer's "more" mark (`PagerRenderer.moreMark`).
    package var moreGutter: Int = 0

    /// Adds `text` in `box`, in `face`, measured by `measure`, aligned.
    mutating func add(_ text: String, in box: Rect, face: Face, width: Int, alignment: TextAlignment) {
        texts.append(Self.text(text, in: box, face: face, width: width, alignment: alignment))
    }

    /// `text` placed in `box` as `add(_:in:face:width:alignment:)` places it, without a layout to hold it.
    static func text(_ text: String, in box: Rect, face: Face, width: Int, alignment: TextAlignment) -> Text {
        let left: Int
        switch alignment {
        case .leading: left = box.x
        case .center: left = box.x + (box.width - width) / 2
        case .trailing: left = box.x + box.width - width
        }
        return Text(text: text, box: box, ink: Rect(x: left, y: box.y, width: width, height: box.height), face: face)
    }
}
