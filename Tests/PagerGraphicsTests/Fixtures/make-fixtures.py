#!/usr/bin/env python3
"""Writes the PNG fixtures of PNGDecoderTests with Python's zlib (a real deflate, not our encoder).

Every fixture draws the same pattern: pixel (x, y) is lit when (7x + 3y + xy) mod 5 < 2, and the
test checks exactly that. The remaining pixels are dark, or bright but transparent (alpha or tRNS),
which must decode dark too. Run it from this directory: python3 make-fixtures.py
"""
import struct
import zlib

W, H = 13, 11


def kind(x, y):
    k = (7 * x + 3 * y + x * y) % 5
    return "lit" if k < 2 else ("dark" if k < 4 else "clear")


def chunk(kind_, data):
    body = kind_.encode() + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def filtered(row, prior, step, ftype):
    out = bytearray([ftype])
    for i, v in enumerate(row):
        a = row[i - step] if i >= step else 0
        b = prior[i] if prior is not None else 0
        c = prior[i - step] if prior is not None and i >= step else 0
        pred = [0, a, b, (a + b) // 2, paeth(a, b, c)][ftype]
        out.append((v - pred) & 0xFF)
    return out


def pack(samples, depth):
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out, acc, bits = bytearray(), 0, 0
    for s in samples:
        acc = (acc << depth) | s
        bits += depth
        if bits == 8:
            out.append(acc)
            acc, bits = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def png(name, ctype, depth, pixel, w=W, h=H, filters=None, interlace=0, plte=None, trns=None,
        level=9, strategy=zlib.Z_DEFAULT_STRATEGY, idat_size=None):
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype]
    step = max(1, channels * depth // 8)
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    raw = bytearray()
    row_number = 0
    for x0, y0, dx, dy in passes:
        xs, ys = list(range(x0, w, dx)), list(range(y0, h, dy))
        if not xs:
            continue
        prior = None
        for y in ys:
            row = pack([s for x in xs for s in pixel(x, y)], depth)
            ftype = filters(row_number) if filters else 0
            raw += filtered(row, prior, step, ftype)
            prior = row
            row_number += 1
    compressor = zlib.compressobj(level, zlib.DEFLATED, 15, 9, strategy)
    stream = compressor.compress(bytes(raw)) + compressor.flush()
    out = b"\x89PNG\r\n\x1a\n" + chunk("IHDR", struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, interlace))
    out += chunk("tEXt", b"Comment\x00made by make-fixtures.py")  # an ancillary chunk to skip
    if plte:
        out += chunk("PLTE", b"".join(bytes(c) for c in plte))
    if trns is not None:
        out += chunk("tRNS", trns)
    size = idat_size or len(stream)
    for start in range(0, len(stream), size):
        out += chunk("IDAT", stream[start:start + size])
    out += chunk("IEND", b"")
    with open(name + ".png", "wb") as f:
        f.write(out)


def grey(depth, clear=None):
    top = (1 << depth) - 1
    def pixel(x, y):
        k = kind(x, y)
        if k == "lit":
            return [top - (x + y) % max(1, top // 3 + 1) if depth > 1 else 1]
        if k == "clear" and clear is not None:
            return [clear]
        return [(x * y) % max(1, top // 3) if depth > 1 else 0]
    return pixel


def grey16(clear=0x1234):
    return lambda x, y: [{"lit": 0xC0A5 + x * 7, "dark": 0x3F12 - y * 5, "clear": clear}[kind(x, y)]]


LIT = [(255, 255, 255), (255, 255, 0), (0, 255, 255), (180, 180, 180), (0, 255, 0)]
DARK = [(0, 0, 0), (0, 0, 255), (255, 0, 0), (100, 100, 100), (120, 0, 200)]


def rgb(clear=None, wide=False):
    def pixel(x, y):
        k = kind(x, y)
        c = clear if k == "clear" and clear else (LIT if k == "lit" else DARK)[(x + 2 * y) % 5]
        return [v * 257 - (x % 3) if wide and v else v * (257 if wide else 1) for v in c]
    return pixel


def alpha(channels, wide=False):
    def pixel(x, y):
        k = kind(x, y)
        colour = [255, 255, 255] if k != "dark" else list(DARK[(x + y) % 5])
        a = {"lit": 255 - (x % 2) * 55, "dark": 255, "clear": (x * 13) % 100}[k]
        samples = ([colour[0] if k != "dark" else 40] if channels == 2 else colour) + [a]
        return [s * 257 for s in samples] if wide else samples
    return pixel


PALETTE = [(0, 0, 0), (255, 255, 255), (255, 255, 0), (0, 0, 255), (200, 200, 255), (90, 30, 30)]


PALETTE_2 = [(0, 0, 0), (255, 255, 255), (0, 0, 255), (200, 200, 255)]


def palette(depth, transparent):
    # Entries: 0 black, 1 white, 2 yellow, 3 blue, 4 lavender, 5 brown; with tRNS, 4 is see-through.
    # At depth 2 (four entries): 0 black, 1 white, 2 blue, 3 lavender, see-through.
    def pixel(x, y):
        k = kind(x, y)
        if depth == 1:
            return [1 if k == "lit" else 0]
        if depth == 2:
            return [1 if k == "lit" else (3 if k == "clear" else 2 * ((x + y) % 2))]
        if k == "lit":
            return [[1, 2][(x + y) % 2]]
        if k == "clear" and transparent:
            return [4]
        return [[0, 3, 5][(x + y) % 3]]
    return pixel


def every_filter(n):
    return n % 5


def main():
    for depth in (1, 2, 4, 8):
        png(f"grey-{depth}", 0, depth, grey(depth), filters=every_filter)
    png("grey-16", 0, 16, grey16(), filters=every_filter)
    png("grey-8-trns", 0, 8, grey(8, clear=200), trns=struct.pack(">H", 200), filters=every_filter)
    png("grey-16-trns", 0, 16, grey16(0xF000), trns=struct.pack(">H", 0xF000))
    png("rgb-8", 2, 8, rgb(), filters=every_filter)
    png("rgb-16", 2, 16, rgb(wide=True), filters=every_filter)
    png("rgb-8-trns", 2, 8, rgb(clear=(250, 250, 250)), trns=struct.pack(">HHH", 250, 250, 250))
    png("palette-1", 3, 1, palette(1, False), plte=PALETTE[:2], filters=every_filter)
    png("palette-2", 3, 2, palette(2, True), plte=PALETTE_2, trns=bytes([255, 255, 255, 0]), filters=every_filter)
    for depth in (4, 8):
        png(f"palette-{depth}", 3, depth, palette(depth, True), plte=PALETTE, trns=bytes([255, 255, 255, 255, 0]),
            filters=every_filter)
    png("grey-alpha-8", 4, 8, alpha(2), filters=every_filter)
    png("grey-alpha-16", 4, 16, alpha(2, wide=True), filters=every_filter)
    png("rgba-8", 6, 8, alpha(4), filters=every_filter)
    png("rgba-16", 6, 16, alpha(4, wide=True), filters=every_filter)
    for ftype in range(5):
        png(f"rgb-8-filter-{ftype}", 2, 8, rgb(), filters=lambda n, f=ftype: f)
    png("rgba-8-fixed-huffman", 6, 8, alpha(4), filters=every_filter, strategy=zlib.Z_FIXED)
    png("rgb-8-stored", 2, 8, rgb(), level=0)
    png("rgb-8-many-idat", 2, 8, rgb(), filters=every_filter, idat_size=7)
    for name, ctype, depth, pixel, extra in [
        ("grey-1", 0, 1, grey(1), {}), ("grey-8", 0, 8, grey(8), {}),
        ("palette-4", 3, 4, palette(4, True), {"plte": PALETTE, "trns": bytes([255, 255, 255, 255, 0])}),
        ("rgba-8", 6, 8, alpha(4), {}), ("rgb-16", 2, 16, rgb(wide=True), {}),
    ]:
        png(f"{name}-adam7", ctype, depth, pixel, interlace=1, filters=every_filter, **extra)
    png("grey-8-adam7-3x2", 0, 8, grey(8), w=3, h=2, interlace=1, filters=every_filter)
    png("rgb-8-1x1", 2, 8, rgb(), w=1, h=1)
    png("rgb-8-300x200", 2, 8, rgb(), w=300, h=200, filters=every_filter)
    # Zlib streams for InflateTests; the text is rebuilt by the test.
    text = b"".join(b"page %d of the crown; " % i for i in range(400))
    with open("text-dynamic.zlib", "wb") as f:
        f.write(zlib.compress(text, 9))
    fixed = zlib.compressobj(9, zlib.DEFLATED, 15, 9, zlib.Z_FIXED)
    with open("text-fixed.zlib", "wb") as f:
        f.write(fixed.compress(text) + fixed.flush())
    # A decompression bomb: a megabyte of zeros in about a kilobyte.
    with open("zeros-1mb.zlib", "wb") as f:
        f.write(zlib.compress(bytes(1 << 20), 9))


main()
