import Foundation
import PagerEngine
import PagerGraphics
import PagerSettings
import Testing

/// Fonts a configuration names: built-in names and BDF files, with errors naming the file and line.
@Suite struct FontFileTests {
    /// Files in memory, by path.
    struct Files: FileReading {
        var contents: [String: String]

        func bytes(atPath path: String, maximumBytes: Int) throws(FileReadError) -> [UInt8] {
            guard let text = contents[path] else { throw FileReadError("could not open \(path): no such file") }
            return Array(text.utf8)
        }
    }

    static let bdf = """
        STARTFONT 2.1
        FONTBOUNDINGBOX 4 4 0 0
        STARTCHAR A
        ENCODING 65
        DWIDTH 5 0
        BBX 4 2 0 1
        BITMAP
        F0
        90
        ENDCHAR
        ENDFONT

        """

    @Test func builtInNamesNeedNoFile() throws {
        #expect(try FontFile.load("fixed10x20", from: Files(contents: [:])) == .fixed10x20)
    }

    @Test func aBDFFileIsReadAtRunTime() throws {
        let font = try FontFile.load(
            "/etc/crownpager/tiny.bdf", from: Files(contents: ["/etc/crownpager/tiny.bdf": Self.bdf]))
        #expect(font.name == "tiny.bdf")
        #expect(font.glyph(for: "A")?.advance == 5)
    }

    @Test func errorsNameTheFileTheLineAndTheChoices() {
        let broken = Self.bdf.replacingOccurrences(of: "90\n", with: "9Z\n")
        #expect(
            throws: FontLoadError(
                "bad.bdf line 9: '9Z' is not hexadecimal: not a BDF font this reads; name a BDF file or one of "
                    + "\"fixed5x8\", \"fixed6x10\", \"fixed10x20\"")
        ) {
            try FontFile.load("bad.bdf", from: Files(contents: ["bad.bdf": broken]))
        }
        #expect(
            throws: FontLoadError(
                "cannot read the font: could not open gone.bdf: no such file; name a BDF file or one of "
                    + "\"fixed5x8\", \"fixed6x10\", \"fixed10x20\"")
        ) {
            try FontFile.load("gone.bdf", from: Files(contents: [:]))
        }
    }
}
