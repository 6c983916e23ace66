import Foundation
import Testing

/// The layers as the sources write them: a pure target or the engine that imports the operating
/// system (Glibc, Foundation) or a layer above it fails here, on every `swift test`, as well as in
/// the Embedded Swift check.
@Suite struct LayerImportTests {
    /// What each pure target may import.
    static let allowed: [String: Set<String>] = [
        "CrownVocabulary": [],
        "PagerGraphics": [],
        "PagerConfig": [],
        "PagerCore": ["PagerGraphics", "CrownVocabulary"],
        "SSD1306": ["PagerGraphics"],
        "CrownInput": ["CrownVocabulary"],
        "GlassViews": ["PagerGraphics", "PagerCore", "SSD1306", "CrownVocabulary"],
        "PagerControl": ["CrownVocabulary"],
        "PagerSettings": ["PagerGraphics", "PagerCore", "SSD1306", "CrownInput", "PagerConfig", "CrownVocabulary"],
        "PagerEngine": [
            "PagerGraphics", "PagerCore", "SSD1306", "CrownInput", "PagerConfig", "PagerSettings", "PagerControl",
            "CrownVocabulary",
        ],
        "PagerTools": [
            "PagerGraphics", "PagerCore", "SSD1306", "CrownInput", "PagerConfig", "PagerSettings", "PagerEngine",
            "CrownVocabulary",
        ],
        "PagerWeb": [
            "PagerGraphics", "PagerCore", "SSD1306", "GlassViews", "PagerConfig", "PagerSettings", "PagerEngine",
            "PagerTools", "CrownVocabulary",
        ],
        "PagerMirror": ["PagerGraphics", "CrownVocabulary"],
    ]

    /// The modules `import` lines in the target's sources name.
    static func imports(of target: String) throws -> Set<String> {
        let folder = ConfigInstallTests.repository.appendingPathComponent("Sources/" + target)
        var modules: Set<String> = []
        for file in try FileManager.default.subpathsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                // `import X`, `@testable import X`, `import struct X.Y`: the module is the last word's first part.
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count else { continue }
                guard words[..<index].allSatisfy({ $0.hasPrefix("@") }) else { continue }
                let module = words[words.count - 1].split(separator: ".").first.map(String.init) ?? ""
                modules.insert(module)
            }
        }
        return modules
    }

    @Test(arguments: allowed.keys.sorted())
    func aPureTargetImportsOnlyTheLayersBelowIt(target: String) throws {
        let found = try Self.imports(of: target)
        #expect(!found.isEmpty || ["CrownVocabulary", "PagerGraphics", "PagerConfig", "PagerControl"].contains(target))
        #expect(found.subtracting(Self.allowed[target] ?? []).isEmpty, "\(target) imports \(found.sorted())")
    }
}
