#!/usr/bin/env python3
"""Turns a BDF bitmap font into a Swift source file for PagerGraphics.

    bdf2swift.py SOURCE.bdf --name fixed6x10 --output Sources/PagerGraphics/Fonts/Fixed6x10.swift

Only glyphs in SUBSET_RANGES are kept, each cropped to its ink so blank rows and
columns cost nothing. The glyph table goes into two hex `StaticString` literals,
which compile in milliseconds (a large integer array literal takes the type checker
seconds) and stay in flash on a microcontroller: `BitmapFont` reads them in place.

Index record, 22 hex digits per glyph, sorted by code point so Swift can binary-search:

    cccccc  code point
    aa      advance (BDF DWIDTH x), two's complement byte
    ww hh   bounding box size (BDF BBX width, height)
    xx yy   bounding box offset from the origin on the baseline (BBX x, y; y up), two's complement
    oooooo  byte offset of the glyph's bits in the bitmap string

Glyph bits are packed row-major, most significant bit first, width*height bits,
padded to a whole byte. Output depends only on the input, so regeneration is idempotent.
Standard library only.
"""

import argparse
import os
import sys
import textwrap
import unicodedata

# The scripts and symbols a pager shows: (first, last, what), inclusive.
SUBSET_RANGES = [
    (0x0020, 0x007E, "ASCII"),
    (0x00A0, 0x00FF, "Latin-1 Supplement (degree, micro, plus-minus)"),
    (0x0100, 0x017F, "Latin Extended-A"),
    (0x0300, 0x036F, "Combining Diacritical Marks"),
    (0x0370, 0x03FF, "Greek and Coptic"),
    (0x0400, 0x04FF, "Cyrillic"),
    (0x2000, 0x206F, "General Punctuation"),
    (0x20A0, 0x20CF, "Currency Symbols"),
    (0x2100, 0x214F, "Letterlike Symbols"),
    (0x2190, 0x21FF, "Arrows"),
    (0x2200, 0x22FF, "Mathematical Operators"),
    (0x2500, 0x257F, "Box Drawing"),
    (0x2580, 0x259F, "Block Elements"),
    (0x25A0, 0x25FF, "Geometric Shapes"),
    (0x2600, 0x26FF, "Miscellaneous Symbols"),
    (0x2700, 0x27BF, "Dingbats"),
    (0xFFFD, 0xFFFD, "Replacement Character"),
]

HEX_PER_LINE = 88  # four index records per line

# For the large text of `size = "large"` pages (one value filling the panel): the letters, digits,
# punctuation, currency and units a value is written in, and no more: at these sizes every glyph
# costs a hundred bytes or more, in the program and in the browser's module (whose size has a
# budget, Scripts/web/test-wasm.sh). Other letters fall back to the page's fonts.
TEXT_BLOCKS = {"ASCII", "Latin-1 Supplement", "General Punctuation", "Currency Symbols", "Replacement Character"}
TEXT_RANGES = [block for block in SUBSET_RANGES if block[2].split(" (")[0] in TEXT_BLOCKS]


def in_subset(code):
    return any(first <= code <= last for first, last, _ in SUBSET_RANGES)


class BDFError(Exception):
    pass


def parse_bdf(path):
    """Returns (properties, font bounding box, glyphs); each glyph a dict with its BDF fields."""
    properties = {}
    font_bbx = None
    glyphs = []
    with open(path, encoding="latin-1") as handle:
        lines = iter(enumerate(handle, start=1))
        glyph = None
        for number, raw in lines:
            line = raw.rstrip("\r\n")
            words = line.split()
            if not words:
                continue
            key = words[0]
            try:
                if key == "FONT" and glyph is None:
                    properties["FONT"] = line[5:].strip()
                elif key == "FONTBOUNDINGBOX":
                    font_bbx = tuple(int(w) for w in words[1:5])
                elif key in ("FONT_ASCENT", "FONT_DESCENT", "DEFAULT_CHAR"):
                    properties[key] = int(words[1])
                elif key == "COPYRIGHT":
                    properties[key] = line[len("COPYRIGHT"):].strip().strip('"')
                elif key == "STARTCHAR":
                    glyph = {"name": line[10:].strip()}
                elif key == "ENCODING" and glyph is not None:
                    glyph["code"] = int(words[1])
                elif key == "DWIDTH" and glyph is not None:
                    glyph["advance"] = int(words[1])
                elif key == "BBX" and glyph is not None:
                    glyph["bbx"] = tuple(int(w) for w in words[1:5])
                elif key == "BITMAP" and glyph is not None:
                    rows = []
                    for _, row_line in lines:
                        text = row_line.strip()
                        if text == "ENDCHAR":
                            break
                        rows.append(int(text, 16) if text else 0)
                    else:
                        raise BDFError("BITMAP without ENDCHAR")
                    glyph["rows"] = rows
                    glyphs.append(glyph)
                    glyph = None
            except (ValueError, IndexError) as error:
                raise BDFError(f"{path}:{number}: cannot read {key!r}: {error}") from None
    if font_bbx is None:
        raise BDFError(f"{path}: no FONTBOUNDINGBOX")
    for key in ("FONT_ASCENT", "FONT_DESCENT"):
        if key not in properties:
            raise BDFError(f"{path}: no {key} property")
    return properties, font_bbx, glyphs


def pixels(glyph):
    """The glyph's lit pixels as (column, row) in its BBX, row 0 at the top."""
    width, height, _, _ = glyph["bbx"]
    row_bits = (width + 7) // 8 * 8
    lit = []
    for row, value in enumerate(glyph["rows"][:height]):
        for column in range(width):
            if value >> (row_bits - 1 - column) & 1:
                lit.append((column, row))
    return lit


def cropped(glyph):
    """(width, height, xoff, yoff, bits) of the glyph cut down to its ink."""
    width, height, xoff, yoff = glyph["bbx"]
    lit = pixels(glyph)
    if not lit:
        return 0, 0, 0, 0, []
    left = min(c for c, _ in lit)
    right = max(c for c, _ in lit)
    top = min(r for _, r in lit)
    bottom = max(r for _, r in lit)
    new_width = right - left + 1
    new_height = bottom - top + 1
    lit_set = set(lit)
    bits = [1 if (left + c, top + r) in lit_set else 0 for r in range(new_height) for c in range(new_width)]
    # BDF y offsets count upwards from the baseline to the bottom row of the box.
    return new_width, new_height, xoff + left, yoff + (height - 1 - bottom), bits


def byte(value, what, code):
    if not -128 <= value <= 255:
        raise BDFError(f"U+{code:04X}: {what} {value} does not fit a byte")
    return value & 0xFF


def swift_string_lines(hex_text, indent):
    """Lines of a multi-line literal; a trailing backslash keeps the newline out of the string."""
    chunks = [hex_text[i:i + HEX_PER_LINE] for i in range(0, len(hex_text), HEX_PER_LINE)] or [""]
    body = "\\\n".join(indent + chunk for chunk in chunks)
    return f'"""\n{body}\n{indent}"""'


def generate(source_path, display_path, name, summary, license_path="Fonts/BDF/LICENSE", origin=None):
    properties, font_bbx, glyphs = parse_bdf(source_path)
    cell_width = font_bbx[0]
    by_code = {}
    for glyph in glyphs:
        code = glyph.get("code", -1)
        if code >= 0 and in_subset(code) and "bbx" in glyph and "advance" in glyph:
            by_code[code] = glyph

    index = []
    bitmap = []
    for code in sorted(by_code):
        glyph = by_code[code]
        width, height, xoff, yoff, bits = cropped(glyph)
        advance = glyph["advance"]
        if unicodedata.category(chr(code)) == "Mn" and advance > 0:
            # misc-fixed draws combining marks in a whole cell for xterm to overlay;
            # here they take no room and land on the previous character's cell.
            xoff -= advance
            advance = 0
        offset = len(bitmap)
        for start in range(0, len(bits), 8):
            chunk = bits[start:start + 8] + [0] * (8 - len(bits[start:start + 8]))
            bitmap.append(int("".join(map(str, chunk)), 2))
        index.append(
            f"{code:06X}{byte(advance, 'advance', code):02X}{byte(width, 'width', code):02X}"
            f"{byte(height, 'height', code):02X}{byte(xoff, 'x offset', code):02X}"
            f"{byte(yoff, 'y offset', code):02X}{offset:06X}")
    if len(bitmap) > 0xFFFFFF:
        raise BDFError("bitmap data exceeds 16 MiB")

    type_name = name[0].upper() + name[1:]
    copyright_text = properties.get("COPYRIGHT", "see " + license_path)
    ranges = ", ".join(what.split(" (")[0] for _, _, what in SUBSET_RANGES)
    out = []
    out.append(f"// Generated by Scripts/dev/fonts/bdf2swift.py from {display_path}, do not edit.")
    out.append(f"// Source: {properties.get('FONT', '?')}")
    out.append(f"// Copyright: \"{copyright_text}\" (see {license_path}).")
    if origin:
        out.extend(textwrap.wrap(f"From: {origin}.", width=96, initial_indent="// ", subsequent_indent="//   "))
    out.extend(textwrap.wrap(f"Subset: {ranges}.", width=96, initial_indent="// ", subsequent_indent="//   "))
    out.append(f"// {len(index)} glyphs, {len(bitmap)} bytes of glyph bits.")
    out.append("")
    out.append("extension BitmapFont {")
    out.append(f"    /// {summary}")
    out.append(f"    public static let {name} = BitmapFont(")
    out.append(f"        name: \"{name}\",")
    out.append(f"        ascent: {properties['FONT_ASCENT']},")
    out.append(f"        descent: {properties['FONT_DESCENT']},")
    out.append(f"        cellWidth: {cell_width},")
    out.append(f"        glyphCount: {len(index)},")
    out.append(f"        index: {type_name}Data.index,")
    out.append(f"        bits: {type_name}Data.bits")
    out.append("    )")
    out.append("}")
    out.append("")
    out.append(f"private enum {type_name}Data {{")
    out.append("    static let index: StaticString = " + swift_string_lines("".join(index), "        "))
    out.append("")
    out.append("    static let bits: StaticString = " + swift_string_lines("".join(f"{b:02X}" for b in bitmap), "        "))
    out.append("}")
    return "\n".join(out) + "\n"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="the BDF file")
    parser.add_argument("--name", required=True, help="Swift name of the static member, e.g. fixed6x10")
    parser.add_argument("--summary", default="A bitmap font.", help="one-line doc comment for the member")
    parser.add_argument("--output", required=True, help="the Swift file to write")
    parser.add_argument("--display-path", help="source path to name in the banner (default: as given)")
    parser.add_argument("--license", default="Fonts/BDF/LICENSE", help="the licence file to name in the banner")
    parser.add_argument("--origin", help="the package and version the BDF came from, for the banner")
    parser.add_argument(
        "--subset", choices=["pager", "text"], default="pager",
        help="pager: every range a page shows (default); text: the ranges of large text")
    args = parser.parse_args(argv)
    if args.subset == "text":
        SUBSET_RANGES[:] = TEXT_RANGES
    try:
        text = generate(
            args.source, args.display_path or args.source, args.name, args.summary, args.license, args.origin)
    except (OSError, BDFError) as error:
        print(f"bdf2swift: {error}", file=sys.stderr)
        return 1
    temporary = args.output + ".tmp"
    with open(temporary, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
    os.replace(temporary, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
