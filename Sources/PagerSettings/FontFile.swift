import PagerGraphics

/// Why a font a configuration names cannot be used: a sentence naming the font, the line and the fix.
package struct FontLoadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sentence shown to the operator.
    package var description: String

    /// An error with its explanation.
    package init(_ description: String) { self.description = description }
}

/// The fonts a configuration may name (`font = "..."`): a built-in misc-fixed font by name, or a
/// BDF file read at run time.
package enum FontFile {
    /// The built-in fonts by the names a configuration uses.
    package static let builtIn: [(name: String, font: BitmapFont)] = [
        ("fixed5x8", .fixed5x8), ("fixed6x10", .fixed6x10), ("fixed10x20", .fixed10x20),
    ]
    /// The largest BDF file read: Unifont's BDF is about 11 MB, misc-fixed's largest 2 MB.
    package static let maximumBytes = 16 << 20

    /// The built-in font `spec` names, or the BDF font in the file at path `spec`, read by `files`.
    package static func load(_ spec: String, from files: some FileReading) throws(FontLoadError) -> BitmapFont {
        if let entry = builtIn.first(where: { $0.name == spec }) { return entry.font }
        let bytes: [UInt8]
        do throws(FileReadError) {
            bytes = try files.bytes(atPath: spec, maximumBytes: maximumBytes)
        } catch {
            throw FontLoadError(
                "cannot read the font: \(error.description); name a BDF file or one of \(builtInNames)")
        }
        let name = String(spec.split(separator: "/").last ?? Substring(spec))
        do throws(FontFileError) {
            return try BDFFont.decode(bytes, name: name)
        } catch {
            throw FontLoadError(
                "\(spec) \(error): not a BDF font this reads; name a BDF file or one of \(builtInNames)")
        }
    }

    private static var builtInNames: String {
        builtIn.map { "\"\($0.name)\"" }.joined(separator: ", ")
    }
}
