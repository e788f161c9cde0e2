"""Draw the installable app's icons (sahrat/web/icons/*.png) with the standard library.

Run ``python scripts/make_icons.py``; the PNGs are committed. The picture is
the favicon's (favicon.svg): a lantern-amber ring on night plum with the four
seats' marbles. The maskable icon keeps the drawing inside the safe circle.
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "sahrat" / "web" / "icons"
BG = (0x1B, 0x14, 0x26)
RING = (0xF4, 0xA5, 0x48)
MARBLES = [(0xE8, 0x50, 0x5B), (0x2B, 0xB3, 0xA3), (0xF4, 0xB7, 0x40), (0x7B, 0x8C, 0xF0)]
Colour = tuple[int, int, int]


def shade(x: float, y: float, inset: float, rounded: bool) -> Colour | None:
    """The colour at (x, y) in a 64-unit square, or None outside the icon."""
    if rounded:
        r = 14.0
        cx, cy = min(max(x, r), 64 - r), min(max(y, r), 64 - r)
        if math.hypot(x - cx, y - cy) > r:
            return None
    u, v = (x - 32) / inset + 32, (y - 32) / inset + 32
    for (mx, my), colour in zip([(32, 12), (52, 32), (32, 52), (12, 32)], MARBLES, strict=True):
        if math.hypot(u - mx, v - my) <= 6:
            return colour
    if abs(math.hypot(u - 32, v - 32) - 20) <= 2.5:
        return RING
    return BG


def png(size: int, inset: float, rounded: bool) -> bytes:
    rows = []
    samples = [(i + 0.5) / 3 for i in range(3)]
    for py in range(size):
        row = bytearray([0])
        for px in range(size):
            acc = [0.0, 0.0, 0.0, 0.0]
            for sy in samples:
                for sx in samples:
                    c = shade((px + sx) * 64 / size, (py + sy) * 64 / size, inset, rounded)
                    if c is not None:
                        acc[0] += c[0]
                        acc[1] += c[1]
                        acc[2] += c[2]
                        acc[3] += 255
            n = len(samples) ** 2
            alpha = acc[3] / n
            k = 255 / acc[3] if acc[3] else 0
            row += bytes([round(acc[0] * k), round(acc[1] * k), round(acc[2] * k), round(alpha)])
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    body = zlib.compress(b"".join(rows), 9)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")
    )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, inset, rounded in [
        ("icon-192", 192, 1.0, True),
        ("icon-512", 512, 1.0, True),
        # Maskable: a full square, the drawing within the central 80 % circle.
        ("icon-maskable-512", 512, 0.75, False),
    ]:
        path = OUT / f"{name}.png"
        path.write_bytes(png(size, inset, rounded))
        print(f"{path.name}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
