"""Write the table page's app icons (stkit/web/static/icon-192.png, icon-512.png): a ten-sided die's
outline, light on the page's dark header colour. Pure standard library (zlib PNG). Run once after a
change: `python tools/table_icons.py`."""

from __future__ import annotations

import pathlib
import struct
import zlib

STATIC = pathlib.Path(__file__).resolve().parents[1] / "stkit" / "web" / "static"
DARK = (0x3B, 0x2F, 0x2A)
LIGHT = (0xF4, 0xF1, 0xEA)
RED = (0x9E, 0x2A, 0x1B)


def pixel(x: float, y: float) -> tuple[int, int, int]:
    """The colour at (x, y) in a unit square: a kite (the d10's face) with a red centre line."""
    dx, dy = abs(x - 0.5), y - 0.5
    top = dy < 0 and dx / 0.30 + (-dy) / 0.40 <= 1
    bottom = dy >= 0 and dx / 0.30 + dy / 0.22 <= 1
    if top or bottom:
        if dx < 0.025 and -0.40 < dy < 0.22:
            return RED
        return LIGHT
    return DARK


def png(size: int) -> bytes:
    rows = b"".join(
        b"\x00" + b"".join(bytes(pixel((i + 0.5) / size, (j + 0.5) / size)) for i in range(size)) for j in range(size)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    for size in (192, 512):
        (STATIC / f"icon-{size}.png").write_bytes(png(size))
