import CrownVocabulary
import PagerControl
import PagerCore
import PagerGraphics
import PagerSettings
import PagerTools
import SSD1306
import TestSupport
import Testing

@testable import PagerEngine

/// What people feed a page reaches the glass as they see it elsewhere: invisible characters draw
/// nothing, and a command's or a file's output shows as a terminal shows it. Each test renders two
/// pages that must look the same through the engine, on every panel, and compares the glass.
@Suite struct TextMetamorphicTests {
    /// Answers a command page with `output`, a file page with `file`, and pushes nothing.
    struct FixedSampler: PageSampler {
        var output: String
        var file: String

        func clock(at instant: Timestamp) -> ClockReading { SampleReadings.clock }

        func answer(_ read: PageRead, at instant: Timestamp) -> EngineInput? {
            switch read.source {
            case .command: return .commandFinished(page: read.page, output: output, status: nil)
            case .file: return .fileRead(page: read.page, .text(file))
            case .system, .action: return SamplePageSampler().answer(read, at: instant)
            }
        }
    }

    /// The glass after a second of `pages` on `panel`, commands and files answered by `sampler`,
    /// then `inputs` handled.
    static func glass(
        _ pages: [PageSpec], panel: SSD1306Panel, sampler: FixedSampler = FixedSampler(output: "", file: ""),
        inputs: [EngineInput] = []
    ) -> Bitmap {
        var configuration = DeviceEngineTests.configuration(pages: 1)
        configuration.pages = pages
        configuration.display.panel = panel
        var sampler = sampler
        var shell = VirtualShell(
            engine: DeviceEngine(
                configuration: configuration, style: PageIndicatorStyle(), clock: SampleReadings.clock, start: .zero),
            panel: panel, address: configuration.display.address)
        shell.feed(.start, at: .zero, sampler: &sampler)
        shell.run(events: [], from: .zero, until: .milliseconds(1000), sampler: &sampler)
        var now = Timestamp.milliseconds(1000)
        for input in inputs {
            now = now + .milliseconds(10)
            shell.feed(input, at: now, sampler: &sampler)
        }
        shell.run(events: [], from: now, until: now + .milliseconds(1000), sampler: &sampler)
        return shell.glass
    }

    static let invisible = "\u{200B}\u{2060}\u{FEFF}\u{AD}\u{FE0F}\u{200D}"

    @Test(arguments: SSD1306Panel.all)
    func aPageWithInvisibleCharactersLooksAsThePageWithout(panel: SSD1306Panel) {
        let plain = PageSpec(title: "Kitchen", kind: .text("Oven on at 220 C, timer 12 min, door shut"))
        let marked = PageSpec(
            title: "Kit\u{200B}chen\u{FEFF}",
            kind: .text(
                "Ov\u{AD}en on\u{2060} at 220\u{FE0F} C,\u{200B} timer 12 min, door\u{200D} shut" + Self.invisible))
        let expected = Self.glass([plain], panel: panel)
        #expect(Self.glass([marked], panel: panel) == expected)
        // The plain page draws something: the comparison is not of two blank panels.
        #expect(expected.litPixelCount > 0)
    }

    static let command = CommandSpec(argv: ["status"], refresh: .milliseconds(500), timeout: .milliseconds(400))

    @Test(arguments: SSD1306Panel.all)
    func aCommandPageWithColoursAndCarriageReturnsLooksAsItsPlainText(panel: SSD1306Panel) {
        let page = PageSpec(title: "Web", kind: .command(Self.command))
        let plain = FixedSampler(output: "OK web\nsync 100%\ndisk    ok\nab\n", file: "")
        let coloured = FixedSampler(
            output: "\u{1B}[1;32mOK\u{1B}[0m web\nsync 10%\rsync 100%\ndisk\tok\u{1B}]0;title\u{7}\nax\u{8}b\n",
            file: "")
        let expected = Self.glass([page], panel: panel, sampler: plain)
        #expect(Self.glass([page], panel: panel, sampler: coloured) == expected)
        #expect(expected.litPixelCount > 0)
    }

    @Test(arguments: SSD1306Panel.all)
    func aFilePageOfAColouredLogLooksAsItsPlainText(panel: SSD1306Panel) {
        let page = PageSpec(title: "Log", kind: .file(path: "/var/log/app.log", lines: 3, refresh: .milliseconds(500)))
        let plain = FixedSampler(output: "", file: "12:00 INFO started\n12:01 WARN slow\n12:02 ERROR down\n")
        let coloured = FixedSampler(
            output: "",
            file:
                "12:00 \u{1B}[32mINFO\u{1B}[0m started\n12:01 \u{1B}[33mWARN\u{1B}[m slow\r\n12:02 \u{1B}[1;31mERROR\u{1B}[0m down\n"
        )
        let expected = Self.glass([page], panel: panel, sampler: plain)
        #expect(Self.glass([page], panel: panel, sampler: coloured) == expected)
        #expect(expected.litPixelCount > 0)
    }

    @Test(arguments: [SSD1306Panel.ssd1306_128x64, .ssd1306_128x32])
    func aPushedValueAndANotificationShowAsTheirPlainText(panel: SSD1306Panel) {
        var pushed = PageSpec(title: "Door", kind: .text(""))
        pushed.push = PushedValue()
        func set(_ value: String) -> EngineInput { .control(.set(page: .named("Door"), value: value), reply: 1) }
        #expect(
            Self.glass([pushed], panel: panel, inputs: [set("\u{1B}[1mopen\u{1B}[0m\u{200B}")])
                == Self.glass([pushed], panel: panel, inputs: [set("open")]))
        let page = PageSpec(title: "Home", kind: .text("x"))
        let plain = PagerNotification(message: "Washer done    now", title: "Laundry")
        let coloured = PagerNotification(message: "Washer \u{1B}[32mdone\u{1B}[0m\tnow", title: "Laun\u{200B}dry")
        let expected = Self.glass([page], panel: panel, inputs: [.notify(plain)])
        #expect(Self.glass([page], panel: panel, inputs: [.notify(coloured)]) == expected)
        #expect(expected != Self.glass([page], panel: panel))
    }
}
