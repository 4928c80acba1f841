"""Share at the end of a game: the game as a PNG drawn on the device (static/share.js).

The picture is downloaded from a desktop browser and read back: a PNG of the size the
script draws, whose pixels hold every clue. The proof is a comparison: the downloaded
picture against the same drawing with one clue left empty, box by box, where the script
gave each clue its room. The room's code is in neither the page's share data nor what
the share sheet is given.
"""

from __future__ import annotations

import base64
import json
import os
import struct
from pathlib import Path
from typing import Any

import pytest

from .. import kit
from ..kit import http
from .conftest import DESKTOP, PHONE, OpenPlayer, Player


@pytest.fixture
def server(shared_server: kit.Server) -> kit.Server:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
LOCALES = {"en": "en-US", "fr": "fr-FR", "zh": "zh-CN"}
SHARE_LABEL = {"en": "Share", "fr": "Partager", "zh": "分享"}
CHINESE_CLUES = [
    ["麒麟", "鸳鸯", "饕餮", "龙舟"],
    ["葫芦", "琉璃", "玳瑁", "枇杷"],
    ["橄榄", "貔貅", "砚台", "芍药"],
]
"""Clues no keyword of the Chinese deck holds."""
SAVED = os.environ.get("SOCLOVER_SHARE_SHOTS")
"""A folder to keep the pictures and the end screens in, to look at them."""


def table(base: str, language: str) -> list[kit.Player]:
    r = http.post(f"{base}/api/rooms", json={"name": "Ada", "decoys": 1, "language": language})
    assert r.status_code == 201, r.text
    body = r.json()
    host = kit.Player(base, body["code"], body["token"], body["seat"], "Ada")
    return [host, kit.join(base, host.code, "Bea"), kit.join(base, host.code, "Cy")]


def clues_of(language: str, seat: int) -> list[str]:
    return CHINESE_CLUES[seat] if language == "zh" else kit.clues_for(seat)


def play_to_the_end(players: list[kit.Player], language: str) -> None:
    """A whole game through the API: the first clover takes two tries, the others one."""
    players[0].act("start")
    for p in players:
        p.act("clues", clues=clues_of(language, p.seat))
    for p in players:
        p.act("done")
    for turn in range(len(players)):
        truth = kit.solution(players)
        holder = players[players[0].state()["resolution"]["lock_holder"]]
        wrong = truth[0] if turn == 0 else None
        for s in truth:
            rotation = (s["rotation"] + 1) % 4 if s is wrong else s["rotation"]
            holder.act("place", card=s["card"], spot=s["spot"], rotation=rotation)
        holder.act("lock")
        if wrong is not None:
            holder = players[players[0].state()["resolution"]["lock_holder"]]
            holder.act("place", card=wrong["card"], spot=wrong["spot"], rotation=wrong["rotation"])
            holder.act("lock")
        players[0].act("next")
    assert players[0].state()["phase"] == "finished"


def end_page(open_player: OpenPlayer, seat: kit.Player, size: dict[str, int], lang: str) -> Player:
    player = open_player(seat.name, size, token=seat.token, code=seat.code, locale=LOCALES[lang])
    player.goto(f"/r/{seat.code}")
    player.page.locator(".finished .share-game:visible").wait_for()
    return player


def share_data(player: Player, code: str) -> dict[str, Any]:
    raw = player.page.locator(".share-game").get_attribute("data-share")
    assert raw
    assert code.lower() not in raw.lower(), "the room's code is in the share data"
    data: dict[str, Any] = json.loads(raw)
    return data


def downloaded(player: Player) -> bytes:
    with player.page.expect_download() as download:
        player.page.locator(".share-game").click()
    assert download.value.suggested_filename == "so-clover.png"
    body = Path(download.value.path()).read_bytes()
    assert body[:8] == PNG_SIGNATURE, "not a PNG"
    assert body[12:16] == b"IHDR", "a PNG's first chunk is its header"
    return body


INK_IN_BOXES = """async ([png, data, swaps]) => {
    // The downloaded picture's pixels, and the same drawing with one clue changed, box by box.
    const bytes = Uint8Array.from(atob(png), c => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], {type: "image/png"}));
    const read = (source, width, height) => {
        const canvas = document.createElement("canvas");
        canvas.width = width; canvas.height = height;
        const ctx = canvas.getContext("2d");
        ctx.drawImage(source, 0, 0);
        return ctx.getImageData(0, 0, width, height).data;
    };
    const shared = read(bitmap, bitmap.width, bitmap.height);
    const drawn = window.soCloverShare.draw(data);
    const dark = (pixels, width, box) => {  // pixels darker than the ground's colours
        let n = 0;
        for (let y = Math.ceil(box.y); y < box.y + box.h; y++) {
            for (let x = Math.ceil(box.x); x < box.x + box.w; x++) {
                const i = (y * width + x) * 4;
                if (0.3 * pixels[i] + 0.59 * pixels[i + 1] + 0.11 * pixels[i + 2] < 110) n++;
            }
        }
        return n;
    };
    const same = (a, b, width, box) => {
        for (let y = Math.ceil(box.y); y < box.y + box.h; y++) {
            for (let x = Math.ceil(box.x); x < box.x + box.w; x++) {
                const i = (y * width + x) * 4;
                if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) return false;
            }
        }
        return true;
    };
    return drawn.boxes.map(box => {
        const changed = (word) => {
            const other = JSON.parse(JSON.stringify(data));
            other.clovers[box.clover].clues[box.leaf] = word;
            const again = window.soCloverShare.draw(other).canvas;
            return read(again, again.width, again.height);
        };
        const swap = swaps[box.clover] ? swaps[box.clover][box.leaf] : null;
        return {
            box,
            size: [drawn.canvas.width, drawn.canvas.height],
            shared: dark(shared, bitmap.width, box),
            empty: dark(changed(""), bitmap.width, box),
            sameAsSwapped: swap === null ? null : same(shared, changed(swap), bitmap.width, box),
        };
    });
}"""


def ink_in_boxes(
    player: Player, png: bytes, data: dict[str, Any], swaps: dict[int, dict[int, str]] | None = None
) -> list[dict[str, Any]]:
    encoded = base64.b64encode(png).decode()
    found: list[dict[str, Any]] = player.page.evaluate(
        INK_IN_BOXES, [encoded, data, {str(k): v for k, v in (swaps or {}).items()}]
    )
    return found


def keep(body: bytes, name: str) -> None:
    if SAVED:
        Path(SAVED).mkdir(parents=True, exist_ok=True)
        (Path(SAVED) / name).write_bytes(body)


def assert_every_clue_drawn(png: bytes, boxes: list[dict[str, Any]], clovers: int) -> None:
    width, height = struct.unpack(">II", png[16:24])
    assert [width, height] == boxes[0]["size"], "the download is the script's drawing"
    assert width == 1080 and height > 1500
    assert len(boxes) == 4 * clovers
    for found in boxes:
        where = f"clover {found['box']['clover']}, leaf {found['box']['leaf']}"
        assert found["empty"] == 0, f"{where}: something but the clue is drawn in its box"
        assert found["shared"] > 40, f"{where}: no clue drawn in the shared picture"


def test_the_shared_picture_holds_every_clue_and_never_the_code(
    open_player: OpenPlayer, server: Any, tmp_path: Path
) -> None:
    players = table(server.url, "en")
    play_to_the_end(players, "en")
    code = players[0].code
    ada = end_page(open_player, players[0], DESKTOP, "en")
    data = share_data(ada, code)
    clues = sorted(c["clues"] for c in data["clovers"])
    assert clues == sorted(kit.clues_for(seat) for seat in range(3))
    assert all(name in data["players"] for name in ("Ada", "Bea", "Cy"))
    assert data["score"] == "Score: 16 of 18"
    assert [len(c["tries"]) for c in data["clovers"]] == [2, 1, 1]
    assert data["clovers"][0]["tries"][0] == "Try 1: 3 of 4 right"
    assert all(len(pair) == 2 and all(pair) for c in data["clovers"] for pair in c["keywords"])

    png = downloaded(ada)
    keep(png, "share-en.png")
    assert_every_clue_drawn(png, ink_in_boxes(ada, png, data), clovers=3)


def test_a_chinese_rooms_picture_draws_its_clues(
    open_player: OpenPlayer, server: Any, tmp_path: Path
) -> None:
    players = table(server.url, "zh")
    play_to_the_end(players, "zh")
    bea = end_page(open_player, players[1], DESKTOP, "zh")
    data = share_data(bea, players[0].code)
    assert data["language"] == "zh"
    assert data["score"] == "得分：16/18分"
    png = downloaded(bea)
    keep(png, "share-zh.png")
    # Another word of as many characters in the first box: real glyphs differ, missing
    # ones (the same empty box for every character) would not.
    first = data["clovers"][0]["clues"][0]
    boxes = ink_in_boxes(bea, png, data, swaps={0: {0: "蜈" * len(first)}})
    assert_every_clue_drawn(png, boxes, clovers=3)
    assert boxes[0]["sameAsSwapped"] is False, "the Chinese clue is not drawn with its glyphs"


SHARE_SHEET = """
(() => {
    window.sharedWith = [];
    Object.defineProperty(navigator, "canShare", {value: (d) => !!(d && d.files)});
    Object.defineProperty(navigator, "share", {value: (d) => {
        window.sharedWith.push({title: d.title || "", text: d.text || "", url: d.url || "",
            files: d.files.map(f => ({name: f.name, type: f.type, size: f.size}))});
        return Promise.resolve();
    }});
})();
"""
"""A phone's share sheet, as far as the page can tell: it takes files, and says what it got."""


SHARE_BUTTON_JS = """() => {
    const b = [...document.querySelectorAll(".share-game")].find((e) => e.offsetParent !== null);
    if (!b) return null;
    const r = b.getBoundingClientRect();
    return {x: r.x, y: r.y, width: r.width, height: r.height,
            size: parseFloat(getComputedStyle(b).fontSize)};
}"""
"""The shown Share button's box and text size, read at one moment: the live stream draws
the stage again as it opens, and a button read in two steps may be gone by the second."""


@pytest.mark.parametrize("lang", ["en", "fr", "zh"])
def test_on_a_phone_share_is_on_the_first_screen_and_opens_the_share_sheet(
    open_player: OpenPlayer, server: Any, lang: str, tmp_path: Path
) -> None:
    players = table(server.url, lang)
    play_to_the_end(players, lang)
    code = players[0].code
    cy = open_player("Cy", PHONE, token=players[2].token, code=code, locale=LOCALES[lang])
    cy.context.add_init_script(SHARE_SHEET)
    cy.goto(f"/r/{code}")
    button = cy.page.get_by_role("button", name=SHARE_LABEL[lang], exact=True)
    button.wait_for()
    box = cy.page.wait_for_function(SHARE_BUTTON_JS).json_value()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    assert box["height"] >= 44, box
    assert box["y"] + box["height"] <= PHONE["height"], "Share is on the end's first screen"
    assert box["size"] >= 12, box
    assert cy.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot = (Path(SAVED) if SAVED else tmp_path) / f"end-{lang}-phone.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    cy.page.screenshot(path=shot)

    button.click()
    cy.page.wait_for_function("window.sharedWith.length === 1")
    shared = cy.page.evaluate("window.sharedWith[0]")
    assert shared["files"] == [
        {"name": "so-clover.png", "type": "image/png", "size": shared["files"][0]["size"]}
    ]
    assert shared["files"][0]["size"] > 10_000
    assert code.lower() not in json.dumps(shared, ensure_ascii=False).lower()
    share_data(cy, code)
