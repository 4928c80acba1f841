"""A keyword in disguise, sent as a clue over the JSON API: refused as the keyword, and the
room as it was. The rules' own cases are in tests/rules/test_disguised_keywords.py."""

from __future__ import annotations

from typing import Any

import pytest

from ..kit import Player, Server, assert_error, http, join


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server.url


SMALL_CAPITALS = dict(zip("abcdefghijklmnopqrstuvwyz", "ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘꞯʀꜱᴛᴜᴠᴡʏᴢ", strict=True))


def started_in(api: str, language: str) -> Player:
    r = http.post(f"{api}/api/rooms", json={"name": "Ada", "language": language})
    assert r.status_code == 201, r.text
    body = r.json()
    ada = Player(api, body["code"], body["token"], body["seat"], "Ada")
    join(api, ada.code, "Bea")
    join(api, ada.code, "Cy")
    ada.act("start")
    return ada


def disguises(word: str) -> list[str]:
    middle = len(word) // 2
    return [
        "".join(SMALL_CAPITALS.get(ch, ch) for ch in word.lower()),  # ᴄʜɪᴇɴ
        word[:middle] + "'" + word[middle:],  # Cor'beau
        word[:middle] + "\u2019" + word[middle:],  # Cor’beau
        word[:middle] + "-" + word[middle:],  # Biblio-thèque
        word.replace("i", "\u0131"),  # the dotless ı
        "".join(chr(ord(ch) + 0xFEE0) if ch.isascii() else ch for ch in word),  # full width
    ]


def clover(player: Player) -> list[dict[str, Any]]:
    return player.state()["clover"]["leaves"]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_disguised_keyword_is_refused_and_the_room_unchanged(api: str, language: str) -> None:
    ada = started_in(api, language)
    ada.act("clues", clues=[None, "Zorglub", None, None])
    before = clover(ada)
    keyword = before[0]["pair"][0]
    for clue in {*disguises(keyword)} - {keyword}:
        error = assert_error(
            ada.post("clues", clues=[clue, "Zorglub", None, None]), 422, code="clue_rejected"
        )
        assert [(d["leaf"], d["code"]) for d in error["details"]] == [(0, "keyword")], clue
        assert clover(ada) == before
    # What only looks like the keyword's parts is a clue: saved, and warned at most.
    state = ada.act("clues", clues=["arc-en-ciel", "Zorglub", None, None])
    assert state["clover"]["leaves"][0]["clue"] == "arc-en-ciel"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_keyword_in_cyrillic_letters_is_refused(api: str, language: str) -> None:
    ada = started_in(api, language)
    before = clover(ada)
    keyword = next(w for leaf in before for w in leaf["pair"] if set(w) & set("aceopxy"))
    clue = keyword.translate(str.maketrans("aceopxy", "асеорху"))  # Ваtеаu
    error = assert_error(ada.post("clues", clues=[clue, None, None, None]), 422)
    assert error["code"] == "clue_rejected"
    assert error["details"][0]["code"] in ("keyword", "mixed_scripts"), clue
    assert clover(ada) == before
