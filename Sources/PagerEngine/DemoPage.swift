import CrownVocabulary
import PagerCore
import PagerGraphics

/// The built-in pages shown when nothing is configured: worth looking at on a desktop or a fresh Pi.
public enum DemoPage: PageContent, Hashable, Sendable {
    /// What CrownPager is and how to turn it.
    case welcome
    /// The time, large, and the date.
    case clock(ClockReading)
    /// Host name, load, memory and uptime.
    case system(SystemReading)
    /// A title and wrapped text.
    case text(title: String, body: String)
    /// A title and wrapped text as long as it needs: taller than the screen, the crown scrolls it first.
    case tall(title: String, body: String)
    /// A numbered page, to fill long lists (`--pages 40`).
    case numbered(Int)

    /// The page's title, for the overview and for messages.
    public var title: String {
        switch self {
        case .welcome: return "Welcome"
        case .clock: return "Clock"
        case .system(let reading): return reading.hostname
        case .text(let title, _), .tall(let title, _): return title
        case .numbered(let number): return "Page \(number)"
        }
    }

    /// One screen, except for the tall page, which is as tall as its wrapped text.
    public func contentHeight(in viewport: Size) -> Int {
        guard case .tall(_, let body) = self else { return viewport.height }
        let font = BitmapFont.fixed6x10
        let lines = font.wrap(body, width: viewport.width).count
        return max(viewport.height, font.lineHeight + 2 + lines * font.lineHeight)
    }

    /// Draws the page; layouts adapt to 64- and 32-row panels.
    public func draw(into canvas: inout Bitmap, at instant: Timestamp) {
        let tall = canvas.height >= 48
        switch self {
        case .welcome:
            drawWelcome(into: &canvas, tall: tall)
        case .clock(let reading):
            drawClock(reading, into: &canvas, tall: tall)
        case .system(let reading):
            drawSystem(reading, into: &canvas, tall: tall)
        case .text(let title, let body), .tall(let title, let body):
            drawText(title: title, body: body, into: &canvas, tall: tall)
        case .numbered(let number):
            canvas.drawText(
                "Page", in: Rect(x: 0, y: tall ? 6 : 0, width: canvas.width, height: 10),
                font: .fixed6x10, alignment: .center)
            canvas.drawText(
                String(number), in: Rect(x: 0, y: tall ? 24 : 11, width: canvas.width, height: 20),
                font: .fixed10x20, alignment: .center)
        }
    }

    /// The welcome page's lines on a 64-row panel.
    static let welcomeLines = ["Turn the crown to", "page \u{2193} and back \u{2191}.", "Press: first page."]

    private func drawWelcome(into canvas: inout Bitmap, tall: Bool) {
        let titleFont = tall ? BitmapFont.fixed10x20 : BitmapFont.fixed6x10
        let body = BitmapFont.fixed6x10
        canvas.drawText(
            "CrownPager", in: Rect(x: 0, y: tall ? 2 : 0, width: canvas.width, height: titleFont.lineHeight),
            font: titleFont, alignment: .center)
        var y = tall ? 26 : 11
        let lines = tall ? Self.welcomeLines : ["Turn: page \u{2193}\u{2191}", "Press: first page"]
        for line in lines {
            canvas.drawText(line, at: Point(x: 2, y: y), font: body)
            y += body.lineHeight + (tall ? 2 : 0)
        }
    }

    private func drawClock(_ reading: ClockReading, into canvas: inout Bitmap, tall: Bool) {
        let big = BitmapFont.fixed10x20
        let small = BitmapFont.fixed6x10
        let timeTop = tall ? 12 : 0
        canvas.drawText(
            reading.timeText, in: Rect(x: 0, y: timeTop, width: canvas.width, height: big.lineHeight),
            font: big, alignment: .center)
        let dateTop = timeTop + big.lineHeight + (tall ? 6 : 1)
        // In a short content area (the row of dots at the bottom of a 32-row panel) the date
        // does not fit: leave it out rather than show a sliver of it.
        if dateTop + small.lineHeight <= canvas.height {
            canvas.drawText(
                reading.dateText, in: Rect(x: 0, y: dateTop, width: canvas.width, height: small.lineHeight),
                font: small, alignment: .center)
        }
        if tall {
            // A seconds bar under the date: the page visibly lives.
            let barWidth = canvas.width - 20
            canvas.strokeRect(Rect(x: 10, y: canvas.height - 6, width: barWidth, height: 4))
            let filled = (barWidth - 2) * max(0, min(reading.second, 59)) / 59
            canvas.fillRect(Rect(x: 11, y: canvas.height - 5, width: filled, height: 2))
        }
    }

    private func drawSystem(_ reading: SystemReading, into canvas: inout Bitmap, tall: Bool) {
        let font = BitmapFont.fixed6x10
        var y = 0
        if tall {
            canvas.drawText(
                reading.hostname, in: Rect(x: 0, y: 0, width: canvas.width, height: font.lineHeight),
                font: font, alignment: .center)
            canvas.drawHorizontalLine(x: 0, y: font.lineHeight + 1, length: canvas.width)
            y = font.lineHeight + 4
        }
        canvas.drawText("load \(reading.loadText)", at: Point(x: 0, y: y), font: font)
        y += font.lineHeight + (tall ? 2 : 1)
        canvas.drawText("mem \(reading.memoryText)", at: Point(x: 0, y: y), font: font)
        y += font.lineHeight + 1
        let bar = Rect(x: 0, y: y, width: canvas.width - 2, height: tall ? 6 : 4)
        canvas.strokeRect(bar)
        let inner = bar.width - 2
        canvas.fillRect(
            Rect(x: 1, y: y + 1, width: Int(Double(inner) * reading.memoryUsedFraction), height: bar.height - 2))
        if tall {
            canvas.drawText("up \(reading.uptimeText)", at: Point(x: 0, y: bar.maxY + 3), font: font)
        }
    }

    private func drawText(title: String, body: String, into canvas: inout Bitmap, tall: Bool) {
        let font = BitmapFont.fixed6x10
        canvas.drawText(title, at: Point(x: 0, y: 0), font: font)
        canvas.drawHorizontalLine(x: 0, y: font.lineHeight, length: font.width(of: title))
        var y = font.lineHeight + 2
        for line in font.wrap(body, width: canvas.width) {
            guard y < canvas.height else { break }
            canvas.drawText(line, at: Point(x: 0, y: y), font: font)
            y += font.lineHeight
        }
    }
}

/// The built-in pages, in order, with the readings they show; with `count`, exactly that many
/// (the first of the built-in ones, then numbered pages).
public func demoPages(clock: ClockReading, system: SystemReading, count: Int? = nil) -> [DemoPage] {
    let builtIn = builtInPages(clock: clock, system: system)
    guard let count else { return builtIn }
    let wanted = max(0, count)
    return Array(builtIn.prefix(wanted)) + (builtIn.count..<max(builtIn.count, wanted)).map { .numbered($0 + 1) }
}

private func builtInPages(clock: ClockReading, system: SystemReading) -> [DemoPage] {
    [
        .welcome,
        .clock(clock),
        .system(system),
        .text(
            title: "About",
            body: "Vertical pages beside a crown, as on watchOS, on a 1-bit OLED."),
        .text(
            title: "Unicode",
            body: "Grüße, ¡olá!, Привет, Γειά σου, 1½°C ± 0.5 → ↑ ↓ ← ♥ missing: \u{1F642}"),
        .tall(
            title: "Guide",
            body: "This page is taller than the screen. The crown scrolls it first, and the current dot "
                + "stretches into a capsule that shows where you are. At the end of the page the next turn "
                + "pages on. Turn fast to scrub: pages change at once, without the slide. Hold the crown "
                + "for the list of page titles; press to go back to the first page."),
    ]
}

/// Fixed readings for reproducible frames (goldens, the README picture, `--frozen`).
public enum SampleReadings {
    /// 10:09:30 on Saturday 21 November 2026.
    public static let clock = ClockReading(year: 2026, month: 11, day: 21, hour: 10, minute: 9, second: 30, weekday: 6)
    /// A Raspberry Pi with some load.
    public static let system = SystemReading(
        hostname: "crownpi", load1: 0.42, load5: 0.30, load15: 0.25,
        memoryTotalBytes: 4_026_531_840, memoryAvailableBytes: 2_818_572_288, uptimeSeconds: 273_600)
}
