"""The table's icons: the favicon's four-leaf clover, drawn for phones' home screens.

Our own drawing (four round leaves and a square heart), defined once below in the
favicon's 32-unit box and written both as SVG and as PNG. The PNGs are rasterised
here, in plain Python (exact anti-aliased shapes, no renderer to install), so the
same drawing always gives the same bytes. Run from the repository's top level
after changing the drawing, and commit what it writes::

    make icons          # or: python3 tools/icons.py

It writes ``static/clover.svg`` (the favicon, and the manifest's scalable icon)
and ``static/icons/``:

- ``clover-192.png``, ``clover-512.png``: the favicon's drawing on a transparent
  ground (the manifest's "any" icons, also shown on the launch screen);
- ``clover-maskable.svg``, ``clover-maskable-192.png``, ``clover-maskable-512.png``:
  on a full ground, the drawing within the central 80 % circle that every launcher's
  mask keeps (a circle, a squircle, a rounded square);
- ``apple-touch-icon.png``: 180 px, opaque (iOS turns transparency black and rounds
  the corners itself).

and ``static/favicon.ico``, the favicon at 16, 32 and 48 px for what asks for
``/favicon.ico`` by name (bookmarks, feed readers, older browsers): each size a PNG
inside the ICO container, which every browser since 2007 reads.
"""

from __future__ import annotations

import math
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "static"

BOX = 32.0
"""The side of the drawing's own box (the favicon's viewBox)."""
LEAF = "#2f9e5b"
LEAVES = ((11.0, 11.0), (21.0, 11.0), (11.0, 21.0), (21.0, 21.0))
LEAF_RADIUS = 7.0
HEART = (12.0, 12.0, 8.0, 1.5)
"""The square at the centre: x, y, side, corner radius."""
HEART_ON_CLEAR = "#f6f3e8"
GROUND = "#f6f4ec"
"""static/table.css's light --bg, the manifest's background_color."""

MASKABLE_SCALE = 0.8
"""The leaves reach 14.07 units (44 %) from the centre; scaled by 0.8, 35 %: inside the
40 % radius of the safe zone, with a margin."""
APPLE_SCALE = 0.9


@dataclass(frozen=True)
class Variant:
    ground: str | None
    """A full square of this colour behind the drawing, or transparent."""
    scale: float
    """The drawing's size, about the centre, relative to the favicon's."""

    @property
    def heart_colour(self) -> str:
        return self.ground or HEART_ON_CLEAR


FAVICON = Variant(None, 1.0)
MASKABLE = Variant(GROUND, MASKABLE_SCALE)
APPLE = Variant(GROUND, APPLE_SCALE)

SVGS = {"clover.svg": FAVICON, "icons/clover-maskable.svg": MASKABLE}
PNGS = {
    "icons/clover-192.png": (FAVICON, 192),
    "icons/clover-512.png": (FAVICON, 512),
    "icons/clover-maskable-192.png": (MASKABLE, 192),
    "icons/clover-maskable-512.png": (MASKABLE, 512),
    "icons/apple-touch-icon.png": (APPLE, 180),
}


def _num(value: float) -> str:
    return f"{round(value, 3):g}"


def _scaled(value: float, scale: float) -> float:
    """A coordinate of the favicon's drawing, scaled about the box's centre."""
    return BOX / 2 + (value - BOX / 2) * scale


def svg(variant: Variant) -> str:
    s = variant.scale
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">']
    if variant.ground:
        parts.append(f'<rect width="32" height="32" fill="{variant.ground}"/>')
    parts.append(f'<g fill="{LEAF}">')
    for x, y in LEAVES:
        parts.append(
            f'<circle cx="{_num(_scaled(x, s))}" cy="{_num(_scaled(y, s))}" '
            f'r="{_num(LEAF_RADIUS * s)}"/>'
        )
    parts.append("</g>")
    x, y, side, radius = HEART
    parts.append(
        f'<rect x="{_num(_scaled(x, s))}" y="{_num(_scaled(y, s))}" width="{_num(side * s)}" '
        f'height="{_num(side * s)}" rx="{_num(radius * s)}" fill="{variant.heart_colour}"/>'
    )
    parts.append("</svg>\n")
    return "".join(parts)


# --- rasterising ----------------------------------------------------------------------------


def _rgb(colour: str) -> tuple[float, float, float]:
    return int(colour[1:3], 16) / 255, int(colour[3:5], 16) / 255, int(colour[5:7], 16) / 255


def _leaves_distance(x: float, y: float) -> float:
    """Signed distance from the leaves' edge (negative inside), in the favicon's units."""
    return min(math.hypot(x - cx, y - cy) for cx, cy in LEAVES) - LEAF_RADIUS


def _heart_distance(x: float, y: float) -> float:
    left, top, side, radius = HEART
    half = side / 2
    qx = abs(x - (left + half)) - (half - radius)
    qy = abs(y - (top + half)) - (half - radius)
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - radius


def _coverage(distance: float, pixel: float) -> float:
    """How much of a pixel (of side ``pixel``) centred at that distance the shape covers."""
    return min(1.0, max(0.0, 0.5 - distance / pixel))


def pixels(variant: Variant, size: int) -> list[bytes]:
    """The image's rows, RGBA, straight alpha."""
    leaf = _rgb(LEAF)
    heart = _rgb(variant.heart_colour)
    ground = _rgb(variant.ground) if variant.ground else None
    unit = BOX / size / variant.scale  # one pixel, in the favicon's units
    rows = []
    for py in range(size):
        y = ((py + 0.5) / size * BOX - BOX / 2) / variant.scale + BOX / 2
        row = bytearray()
        for px in range(size):
            x = ((px + 0.5) / size * BOX - BOX / 2) / variant.scale + BOX / 2
            # premultiplied colour, painted back to front
            if ground:
                r, g, b, a = (*ground, 1.0)
            else:
                r = g = b = a = 0.0
            for colour, cover in (
                (leaf, _coverage(_leaves_distance(x, y), unit)),
                (heart, _coverage(_heart_distance(x, y), unit)),
            ):
                if cover:
                    r = colour[0] * cover + r * (1 - cover)
                    g = colour[1] * cover + g * (1 - cover)
                    b = colour[2] * cover + b * (1 - cover)
                    a = cover + a * (1 - cover)
            if a <= 0:
                row += b"\0\0\0\0"
            else:
                row += bytes(round(c / a * 255) for c in (r, g, b)) + bytes([round(a * 255)])
        rows.append(bytes(row))
    return rows


# --- PNG ------------------------------------------------------------------------------------


def _paeth(left: int, up: int, corner: int) -> int:
    p = left + up - corner
    pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
    if pa <= pb and pa <= pc:
        return left
    return up if pb <= pc else corner


def _filtered(row: bytes, previous: bytes, kind: int, step: int) -> bytes:
    out = bytearray(len(row))
    for i, value in enumerate(row):
        left = row[i - step] if i >= step else 0
        up = previous[i]
        corner = previous[i - step] if i >= step else 0
        if kind == 0:
            guess = 0
        elif kind == 1:
            guess = left
        elif kind == 2:
            guess = up
        elif kind == 3:
            guess = (left + up) // 2
        else:
            guess = _paeth(left, up, corner)
        out[i] = (value - guess) & 0xFF
    return bytes([kind]) + bytes(out)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(rows: list[bytes], size: int) -> bytes:
    """The smallest of a few encodings: RGB when nothing is transparent, and each filter."""
    opaque = all(row[i] == 255 for row in rows for i in range(3, len(row), 4))
    if opaque:
        rows = [bytes(b for i, b in enumerate(row) if i % 4 != 3) for row in rows]
    step = 3 if opaque else 4
    zero = bytes(len(rows[0]))
    filtered = []
    previous = zero
    for row in rows:
        filtered.append([_filtered(row, previous, kind, step) for kind in range(5)])
        previous = row
    candidates = [b"".join(options[kind] for options in filtered) for kind in range(5)]
    # and per row, the filter whose output is smallest as signed bytes (the usual guess)
    candidates.append(
        b"".join(
            min(options, key=lambda f: sum(v if v < 128 else 256 - v for v in f[1:]))
            for options in filtered
        )
    )
    data = min((zlib.compress(c, 9) for c in candidates), key=len)
    header = struct.pack(">IIBBBBB", size, size, 8, 2 if opaque else 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", data)
        + _chunk(b"IEND", b"")
    )


FAVICON_ICO_SIZES = (16, 32, 48)


def ico(images: list[tuple[int, bytes]]) -> bytes:
    """An ICO file holding each ``(size, png)`` as it is: a directory, then the PNGs."""
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = len(header) + 16 * len(images)
    entries, data = b"", b""
    for size, image in images:
        entries += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(image), offset)
        offset += len(image)
        data += image
    return header + entries + data


def main() -> None:
    (STATIC / "icons").mkdir(exist_ok=True)
    for name, variant in SVGS.items():
        (STATIC / name).write_text(svg(variant), encoding="utf-8")
        print(f"static/{name}")
    for name, (variant, size) in PNGS.items():
        data = png(pixels(variant, size), size)
        (STATIC / name).write_bytes(data)
        print(f"static/{name}: {size}x{size}, {len(data)} bytes")
    favicon = ico([(size, png(pixels(FAVICON, size), size)) for size in FAVICON_ICO_SIZES])
    (STATIC / "favicon.ico").write_bytes(favicon)
    print(f"static/favicon.ico: {', '.join(map(str, FAVICON_ICO_SIZES))} px, {len(favicon)} bytes")


if __name__ == "__main__":
    main()
