/// Text as it is drawn: by grapheme cluster (Unicode Standard Annex #29, Swift's `Character`),
/// with Unicode's default-ignorable code points drawing nothing.
///
/// A cluster's advance is the sum of its scalars' advances: combining marks advance 0 and draw
/// over the letter before them, and invisible scalars advance 0 and draw nothing, so an emoji
/// ZWJ sequence (man, ZWJ, woman, ZWJ, girl) is drawn as its parts without the joiners, as
/// Unicode Technical Standard #51 section 2.3 recommends for a sequence no font has as one glyph
/// (BDF and Unifont's hex files give glyphs to single code points only).
/// Wrapping and cutting with an ellipsis break between clusters only.
extension BitmapFont {
    /// Scalars that draw nothing and move nothing: C0 and C1 controls, DEL, and Unicode's
    /// default-ignorable code points (the property `Default_Ignorable_Code_Point`: zero-width
    /// space U+200B, joiners U+200C/U+200D, word joiner U+2060, byte order mark U+FEFF, soft
    /// hyphen U+00AD, variation selectors U+FE00–U+FE0F, bidirectional controls and the rest).
    public static func drawsNothing(_ scalar: Unicode.Scalar) -> Bool {
        // The first default-ignorable is U+00AD: below it only the controls, with no table lookup.
        if scalar.value < 0xAD { return isControl(scalar) }
        return scalar.properties.isDefaultIgnorableCodePoint
    }

    /// How far the pen moves for a grapheme cluster: the sum of its scalars' advances.
    func advance(ofCluster scalars: Substring.UnicodeScalarView) -> Int {
        var total = 0
        for scalar in scalars { total += advance(of: scalar) }
        return total
    }
}

extension FontChain {
    /// How far the pen moves for a grapheme cluster: the sum of its scalars' advances.
    func advance(ofCluster scalars: Substring.UnicodeScalarView) -> Int {
        var total = 0
        for scalar in scalars { total += advance(of: scalar) }
        return total
    }
}

extension Substring.UnicodeScalarView {
    /// Whether this grapheme cluster ends a line: "\n", or "\r\n" (one cluster, rule GB3).
    var endsLine: Bool { last == "\n" }

    /// Whether this grapheme cluster is one space, where a line may break.
    var isSpace: Bool { first == " " && index(after: startIndex) == endIndex }
}

extension StringProtocol {
    /// The grapheme clusters of the text, each as its scalars, in order.
    var clusterScalars: ClusterScalars<Self> { ClusterScalars(text: self) }
}

/// The grapheme clusters of a text, each as its scalars: iterates `Character` boundaries once,
/// without making a `Character` of each cluster.
struct ClusterScalars<Text: StringProtocol>: Sequence {
    let text: Text

    struct Iterator: IteratorProtocol {
        let text: Text
        var index: Text.Index

        mutating func next() -> Substring.UnicodeScalarView? {
            guard index < text.endIndex else { return nil }
            let next = text.index(after: index)
            defer { index = next }
            return Substring(text[index..<next]).unicodeScalars
        }
    }

    func makeIterator() -> Iterator { Iterator(text: text, index: text.startIndex) }
}
