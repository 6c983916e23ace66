#!/usr/bin/env python3
"""Draws crown.png for ImagePageTests: a gold crown on a transparent background, 8-bit RGBA,
Adam7-interlaced, compressed by Python's zlib. Anti-aliased edges are half-transparent, so the
decoder's threshold decides them. Run it from this directory: python3 make-crown.py
"""
import struct
import zlib

W, H, SS = 56, 40, 4  # size, and 4x4 supersampling for the soft edges


def inside(x, y):
    """The crown: a band, three spikes, a ball on each spike; a dark jewel is a hole."""
    if 30 <= y <= 36 and 6 <= x <= 50:
        return "gold"
    for cx in (10, 28, 46):
        if (x - cx) ** 2 + (y - 7) ** 2 <= 9:
            return "gold"
        # spikes: triangles from the band up to the balls
        if 10 <= y < 30 and abs(x - cx) <= (y - 10) * 0.45 + 1:
            return "gold"
    return None


def jewel(x, y):
    return any((x - cx) ** 2 + (y - 33) ** 2 <= 4 for cx in (14, 28, 42))


def pixel(px, py):
    hits, dark = 0, 0
    for sy in range(SS):
        for sx in range(SS):
            x, y = px + (sx + 0.5) / SS, py + (sy + 0.5) / SS
            if inside(x, y):
                hits += 1
                dark += jewel(x, y)
    alpha = hits * 255 // (SS * SS)
    shade = 1 - py / H * 0.3  # a vertical gradient, brighter at the top
    if hits and dark * 2 > hits:
        return (90, 10, 20, alpha)  # a ruby: dark
    return (int(255 * shade), int(200 * shade), int(40 * shade), alpha)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
raw = bytearray()
for x0, y0, dx, dy in ADAM7:
    xs = list(range(x0, W, dx))
    if not xs:
        continue
    prior = None
    for y in range(y0, H, dy):
        row = bytes(v for x in xs for v in pixel(x, y))
        # Filter Sub: each byte minus the byte of the pixel to its left.
        raw += bytes([1]) + bytes((row[i] - (row[i - 4] if i >= 4 else 0)) & 0xFF for i in range(len(row)))


def chunk(kind, data):
    body = kind.encode() + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


with open("crown.png", "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + chunk("IHDR", struct.pack(">IIBBBBB", W, H, 8, 6, 0, 0, 1))
            + chunk("IDAT", zlib.compress(bytes(raw), 9)) + chunk("IEND", b""))
