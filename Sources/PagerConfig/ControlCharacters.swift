/// Escapes the control characters in `text` for a terminal: `\u{1B}` for ESC, so text quoted in a message
/// (a file's content, a command's output, a path) cannot move the cursor, clear the screen or retitle the window.
///
/// Tab and new line stay as they are (messages use them), as does printable Unicode; other C0 controls,
/// DEL and the C1 controls (U+0080 to U+009F, which some terminals obey) become `\u{XX}`.
package func escapingControlCharacters(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isEscapedControl) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        guard isEscapedControl(scalar) else {
            out.append(scalar)
            continue
        }
        for piece in "\\u{".unicodeScalars { out.append(piece) }
        for piece in hex(UInt8(truncatingIfNeeded: scalar.value)).dropFirst(2).unicodeScalars { out.append(piece) }
        out.append("}")
    }
    return String(out)
}

private func isEscapedControl(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value == 0x09 || value == 0x0A { return false }
    return value < 0x20 || (value >= 0x7F && value <= 0x9F)
}
