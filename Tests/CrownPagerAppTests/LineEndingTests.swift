import PagerConfig
import PagerEngine
import PagerSettings
import Testing

/// Files saved with CRLF line ends (Windows editors) read exactly as the same files with LF ends.
@Suite struct LineEndingTests {
    private static func crlf(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
    }

    private static let configuration = """
        # a comment
        [display]
        panel = "128x64"   # trailing comment
        address = 0x3c
        dim_after = "1min"

        [crown]
        lines = { a = 17, b = 27, button = 22 }
        wrap = true
        acceleration = false

        [[page]]
        kind = "text"
        title = "Notes"
        text = \"\"\"
        first line
        second line \\
          continued\"\"\"

        [[page]]
        kind = "text"
        title = 'Literal'
        text = '''
        one
        two'''

        [[page]]
        kind = "gauge"
        source = "memory"
        min = 1.5
        max = 1e3

        [[page]]
        kind = "clock"
        """

    @Test func aCRLFConfigurationReadsAsLF() throws {
        let lf = Self.configuration + "\n"
        let crlf = Self.crlf(lf)
        #expect(crlf.utf8.contains(0x0D))
        let expected = try Configuration(parsing: lf, file: "lf.toml")
        let read = try Configuration(parsing: crlf, file: "lf.toml")
        #expect(read.pages == expected.pages)
        #expect(String(reflecting: read) == String(reflecting: expected))
        #expect(read.pages.first?.kind == .text("first line\nsecond line continued"))
        #expect(try TOMLParser.parse(crlf) == TOMLParser.parse(lf))
    }

    @Test func aCRLFBuiltInFileReadsAsLF() throws {
        let lf = Configuration.builtInText + "\n"
        let expected = try Configuration(parsing: lf, file: "c.toml")
        let read = try Configuration(parsing: Self.crlf(lf), file: "c.toml")
        #expect(String(reflecting: read) == String(reflecting: expected))
    }

    @Test func errorsInACRLFConfigurationNameTheSameLineAndColumn() {
        let lf = "[display]\npanel = \"128x64\"\nbrightness = \"loud\"\n"
        var errors: [String] = []
        for text in [lf, Self.crlf(lf)] {
            do {
                _ = try Configuration(parsing: text, file: "c.toml")
                Issue.record("no error")
            } catch {
                errors.append(error.description)
            }
        }
        #expect(errors.count == 2 && errors.first == errors.last)
        #expect(errors.first?.contains("3") == true)
    }
}
