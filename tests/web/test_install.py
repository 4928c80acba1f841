"""The table on a phone's home screen: the manifest, its icons, the service worker, and
the lines of every page that point at them. (What the worker does in a browser is in
tests/browser/test_install.py.)"""

from __future__ import annotations

import json
import re
import struct
import xml.etree.ElementTree as ET
import zlib
from html.parser import HTMLParser
from urllib.parse import urljoin

import httpx
import pytest

from ..kit import ROOT, Server, create, http

MANIFEST = "/manifest.webmanifest"
TOUCH_ICON = "/static/icons/apple-touch-icon.png"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SVG = "{http://www.w3.org/2000/svg}svg"
JAVASCRIPT = ("text/javascript", "application/javascript")


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server.url


@pytest.fixture(scope="module")
def manifest(api: str) -> dict[str, object]:
    r = http.get(f"{api}{MANIFEST}", timeout=10)
    assert r.status_code == 200, r.text
    parsed: dict[str, object] = json.loads(r.content)
    return parsed


def media_type(r: httpx.Response) -> str:
    return r.headers["content-type"].split(";")[0].strip().lower()


# --- reading images -------------------------------------------------------------------------


def png_size(body: bytes) -> tuple[int, int]:
    """Width and height, from the IHDR chunk (always the first)."""
    assert body[:8] == PNG_SIGNATURE, "not a PNG"
    assert body[12:16] == b"IHDR", "a PNG's first chunk is its header"
    width, height = struct.unpack(">II", body[16:24])
    return width, height


def png_pixels(body: bytes) -> list[list[tuple[int, ...]]]:
    """The pixels of an 8-bit RGB or RGBA PNG (what tools/icons.py writes), row by row."""
    width, height = png_size(body)
    position, idat, header = 8, b"", b""
    while position < len(body):
        (length,) = struct.unpack(">I", body[position : position + 4])
        kind = body[position + 4 : position + 8]
        data = body[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = data
        elif kind == b"IDAT":
            idat += data
        position += 12 + length
    depth, colour, _, _, interlace = struct.unpack(">BBBBB", header[8:])
    assert depth == 8 and colour in (2, 6) and interlace == 0, "8-bit RGB(A), not interlaced"
    step = 3 if colour == 2 else 4
    stride = width * step
    raw = zlib.decompress(idat)
    rows: list[list[tuple[int, ...]]] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up = previous[i]
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                corner = previous[i - step] if i >= step else 0
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                guess = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + guess) & 0xFF
        rows.append(
            [
                tuple(line[x : x + step]) + ((255,) if step == 3 else ())
                for x in range(0, stride, step)
            ]
        )
        previous = line
    return rows


def test_png_size_reads_the_header() -> None:
    header = struct.pack(">IIBBBBB", 48, 36, 8, 6, 0, 0, 0)
    body = PNG_SIGNATURE + struct.pack(">I", 13) + b"IHDR" + header + b"\0\0\0\0"
    assert png_size(body) == (48, 36)
    with pytest.raises(AssertionError):
        png_size(b"GIF89a" + bytes(30))


# --- the pages' head ------------------------------------------------------------------------


class Head(HTMLParser):
    """The <link>, <meta> and <script> tags of a page's <head>."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.in_head = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "head":
            self.in_head = True
        elif self.in_head and tag in ("link", "meta", "script"):
            self.tags.append((tag, {name: value or "" for name, value in attrs}))

    def handle_endtag(self, tag: str) -> None:
        if tag == "head":
            self.in_head = False

    def links(self, rel: str) -> list[dict[str, str]]:
        return [a for t, a in self.tags if t == "link" and rel in a.get("rel", "").split()]

    def metas(self, name: str) -> list[dict[str, str]]:
        return [a for t, a in self.tags if t == "meta" and a.get("name") == name]

    def scripts(self) -> list[dict[str, str]]:
        return [a for t, a in self.tags if t == "script"]


def head_of(html: str) -> Head:
    head = Head()
    head.feed(html)
    return head


def pages(api: str) -> dict[str, str]:
    """The home page, a seat's room page, a visitor's, and a missing room's."""
    host = create(api, "Ada")
    seated = http.get(f"{api}/r/{host.code}", cookies={f"soclover_{host.code}": host.token})
    found = {
        "home": http.get(f"{api}/"),
        "room, seated": seated,
        "room, a visitor": http.get(f"{api}/r/{host.code}"),
        "a missing room": http.get(f"{api}/r/ZZZZZZ"),
    }
    for name, r in found.items():
        assert r.headers["content-type"].startswith("text/html"), name
        assert r.status_code in (200, 404), (name, r.status_code)
    assert "Start the game" in seated.text
    return {name: r.text for name, r in found.items()}


def palette() -> tuple[str, list[str], str]:
    """table.css's light --bg (the first one), every --bg, and its light --green."""
    css = (ROOT / "static" / "table.css").read_text(encoding="utf-8")
    backgrounds = re.findall(r"--bg:\s*(#[0-9a-fA-F]{6})", css)
    green = re.search(r"--green:\s*(#[0-9a-fA-F]{6})", css)
    assert backgrounds and green, "table.css names its colours --bg and --green"
    return backgrounds[0].lower(), [b.lower() for b in backgrounds], green.group(1).lower()


# --- the manifest ---------------------------------------------------------------------------


def test_the_manifest_is_served_as_a_manifest_and_names_the_table(api: str) -> None:
    r = http.get(f"{api}{MANIFEST}", timeout=10)
    assert r.status_code == 200
    assert media_type(r) == "application/manifest+json"
    manifest = json.loads(r.content)
    assert manifest["name"] == "So Clover! table"
    assert manifest["short_name"] == "So Clover!"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    light_bg, _, green = palette()
    assert manifest["background_color"].lower() == light_bg
    assert manifest["theme_color"].lower() == green
    # like every static file, it may be cached: it holds nothing of a seat
    assert "no-store" not in r.headers.get("cache-control", "")


@pytest.mark.parametrize(("language", "lang"), [("fr-FR,fr", "fr"), ("zh-CN", "zh-Hans")])
def test_the_manifest_speaks_the_readers_language(api: str, language: str, lang: str) -> None:
    english = json.loads(http.get(f"{api}{MANIFEST}", timeout=10).content)
    r = http.get(f"{api}{MANIFEST}", headers={"Accept-Language": language}, timeout=10)
    translated = json.loads(r.content)
    assert translated["lang"] == lang and english["lang"] == "en"
    assert translated["description"] != english["description"]
    assert {k: v for k, v in translated.items() if k not in ("lang", "description")} == {
        k: v for k, v in english.items() if k not in ("lang", "description")
    }
    assert "accept-language" in r.headers["vary"].lower()


def test_every_icon_of_the_manifest_is_served_as_the_image_and_size_it_declares(
    api: str, manifest: dict[str, object]
) -> None:
    icons = manifest["icons"]
    assert isinstance(icons, list) and icons
    png_sizes: dict[str, set[str]] = {}
    for icon in icons:
        url = urljoin(f"{api}{MANIFEST}", icon["src"])
        assert url.startswith(f"{api}/static/"), url
        r = http.get(url, timeout=10)
        assert r.status_code == 200, url
        assert media_type(r) == icon["type"], url
        if icon["type"] == "image/png":
            width, height = png_size(r.content)
            assert icon["sizes"] == f"{width}x{height}", url
            for purpose in icon.get("purpose", "any").split():
                png_sizes.setdefault(purpose, set()).add(icon["sizes"])
        else:
            assert icon["type"] == "image/svg+xml", url
            assert icon["sizes"] == "any", url
            svg = ET.fromstring(r.content)
            assert svg.tag == SVG, url
            _, _, width, height = (float(v) for v in svg.attrib["viewBox"].split())
            assert width == height, url
        assert len(r.content) < 64 * 1024, f"{url}: {len(r.content)} bytes"
    assert {"192x192", "512x512"} <= png_sizes.get("any", set())
    assert "512x512" in png_sizes.get("maskable", set())


def test_the_maskable_icons_keep_the_drawing_inside_the_safe_zone(
    api: str, manifest: dict[str, object]
) -> None:
    """A launcher may cut a maskable icon to any shape that holds the central circle of 80 %
    of its side: outside that circle is only the full, opaque ground."""
    icons = manifest["icons"]
    assert isinstance(icons, list)
    maskable = [i for i in icons if "maskable" in i.get("purpose", "").split()]
    pngs = [i for i in maskable if i["type"] == "image/png"]
    assert pngs
    for icon in pngs:
        rows = png_pixels(http.get(urljoin(f"{api}{MANIFEST}", icon["src"])).content)
        size = len(rows)
        ground = rows[0][0]
        assert ground[3] == 255, f"{icon['src']}: the ground is opaque"
        radius, centre = 0.4 * size, size / 2
        outside = drawn = 0
        for y, row in enumerate(rows):
            for x, pixel in enumerate(row):
                if (x + 0.5 - centre) ** 2 + (y + 0.5 - centre) ** 2 > radius**2:
                    outside += pixel != ground
                else:
                    drawn += pixel != ground
        assert outside == 0, f"{icon['src']}: {outside} pixels drawn outside the safe zone"
        assert drawn > size * size // 10, f"{icon['src']}: hardly anything drawn"


def test_every_page_links_the_manifest_the_icons_the_theme_colours_and_the_installer(
    api: str,
) -> None:
    light_bg, backgrounds, _ = palette()
    for name, html in pages(api).items():
        head = head_of(html)
        assert [link["href"] for link in head.links("manifest")] == [MANIFEST], name
        assert [link["href"] for link in head.links("apple-touch-icon")] == [TOUCH_ICON], name
        colours = {m.get("media", ""): m["content"].lower() for m in head.metas("theme-color")}
        assert colours == {
            "(prefers-color-scheme: light)": light_bg,
            "(prefers-color-scheme: dark)": "#141a16",
        }, name
        assert colours["(prefers-color-scheme: dark)"] in backgrounds, name
        installers = [s for s in head.scripts() if s.get("src") == "/static/install.js"]
        assert len(installers) == 1 and "defer" in installers[0], name
    r = http.get(f"{api}{TOUCH_ICON}", timeout=10)
    assert r.status_code == 200 and media_type(r) == "image/png"
    assert png_size(r.content) == (180, 180)
    # iOS shows a touch icon's transparent pixels black: this one has none
    assert all(p[3] == 255 for row in png_pixels(r.content) for p in row)


# --- the service worker ---------------------------------------------------------------------


def shell() -> list[str]:
    """The files sw.js keeps: its SHELL list."""
    source = (ROOT / "static" / "sw.js").read_text(encoding="utf-8")
    listed = re.search(r"const SHELL = \[(.*?)\];", source, re.DOTALL)
    assert listed, "sw.js lists the files it keeps in SHELL"
    return re.findall(r'"([^"]+)"', listed.group(1))


def test_the_service_worker_is_javascript_at_the_root_and_checked_at_every_visit(
    api: str,
) -> None:
    r = http.get(f"{api}/sw.js", timeout=10)
    assert r.status_code == 200
    assert media_type(r) in JAVASCRIPT
    assert r.content == (ROOT / "static" / "sw.js").read_bytes()
    assert r.headers["cache-control"] == "no-cache"
    # at the root, its scope may be the whole site without a Service-Worker-Allowed header
    assert "service-worker-allowed" not in r.headers
    installer = http.get(f"{api}/static/install.js", timeout=10)
    assert installer.status_code == 200 and media_type(installer) in JAVASCRIPT
    assert '"/sw.js"' in installer.text and 'scope: "/"' in installer.text


def test_the_service_worker_keeps_every_static_file_a_page_loads_and_only_static_files(
    api: str, manifest: dict[str, object]
) -> None:
    kept = shell()
    assert kept and len(kept) == len(set(kept))
    for url in kept:
        assert url.startswith("/static/"), url
        assert http.get(f"{api}{url}", timeout=10).status_code == 200, url
    loaded = set()
    for html in pages(api).values():
        head = head_of(html)
        loaded |= {s["src"] for s in head.scripts() if "src" in s}
        # The manifest is no static file: it is served in the reader's language.
        for rel in ("stylesheet", "icon", "apple-touch-icon"):
            loaded |= {link["href"] for link in head.links(rel)}
    icons = manifest["icons"]
    assert isinstance(icons, list)
    loaded |= {urljoin(MANIFEST, icon["src"]) for icon in icons}
    assert loaded - set(kept) == set()


def test_the_csp_lets_a_page_load_the_manifest_and_register_the_worker(api: str) -> None:
    for path in ("/", "/sw.js", MANIFEST):
        csp = http.get(f"{api}{path}", timeout=10).headers["content-security-policy"]
        directives = {d.split()[0]: d.split()[1:] for d in csp.split(";") if d.strip()}
        assert directives["manifest-src"] == ["'self'"], csp
        assert directives["worker-src"] == ["'self'"], csp
        assert directives["script-src"] == ["'self'"], csp


def test_favicon_ico_is_served_at_the_root_with_the_clover_at_each_size(api: str) -> None:
    """What asks for ``/favicon.ico`` by name gets the clover, not a 404."""
    r = http.get(f"{api}/favicon.ico", timeout=10)
    assert r.status_code == 200
    assert media_type(r) in ("image/x-icon", "image/vnd.microsoft.icon")
    body = r.content
    reserved, kind, count = struct.unpack("<HHH", body[:6])
    assert (reserved, kind) == (0, 1) and count >= 2
    sizes = []
    for entry in range(count):
        width, height, _, _, _, _bits, length, offset = struct.unpack(
            "<BBBBHHII", body[6 + 16 * entry : 22 + 16 * entry]
        )
        image = body[offset : offset + length]
        assert png_size(image) == (width or 256, height or 256)
        pixels = png_pixels(image)
        centre = pixels[height // 4][width // 4]
        assert centre[3] == 255 and centre[1] > centre[0], "a green leaf at a quarter in"
        sizes.append(width)
    assert 16 in sizes and 32 in sizes
