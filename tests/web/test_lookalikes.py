"""Look-alike names and clues over HTTP: refused with their codes, and the room unchanged."""

from __future__ import annotations

from typing import Any

import pytest

from ..kit import Player, Server, assert_error, create, http, join, public, table

CARDS = [
    "Frozen, Apple, Anchor, Bakery",
    "Hive, Balloon, Banjo, Beach",
    "Athlete, Blanket, Bottle, Butter",
    "Hope, Button, Camera, Candle",
    "Canyon, Carrot, Castle, Cherry",
    "Circus, Cloud, Comet, Copper",
    "Cotton, Desert, Diamond, Dragon",
    "Drum, Eagle, Engine, Falcon",
    "Feather, Forest, Fountain, Garden",
    "Giant, Glove, Guitar, Hammer",
    "Harbor, Helmet, Island, Jacket",
    "Jungle, Kettle, Ladder, Lantern",
    "Lemon, Magnet, Marble, Meadow",
    "Mirror, Needle, Ocean, Orange",
    "Pencil, Pillow, Planet, Rabbit",
]
"""15 cards, the fewest a game of 3 players and 1 decoy deals, every keyword once."""

GAMES_TO_TRY = 60
"""A keyword faces a leaf of some player's clover in about 2 games of 5; 60 games all miss
it once in a billion times."""


@pytest.fixture(scope="module")
def shared_server_settings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The module's server deals from ``CARDS``."""
    deck = tmp_path_factory.mktemp("lookalikes-deck") / "deck.txt"
    deck.write_text("\n".join(CARDS) + "\n", encoding="utf-8")
    return {"SOCLOVER_KEYWORDS": str(deck)}


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server.url


def names(api: str, code: str) -> list[str]:
    return [p["name"] for p in public(api, code)["players"]]


def refused_join(api: str, code: str, name: str) -> dict[str, Any]:
    return assert_error(http.post(f"{api}/api/rooms/{code}/join", json={"name": name}), 422)


# --- names ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("Р1", "name_taken"),  # Cyrillic capital Er
        ("Ρ1", "name_taken"),  # Greek capital Rho
        ("Ｐ１", "name_taken"),  # full width
        ("p1", "name_taken"),
        ("P1\u3164", "bad_name"),  # Hangul filler
        ("P1\u2800", "bad_name"),  # Braille pattern blank
        ("P\u200b1", "bad_name"),  # zero-width space
        ("\u3164", "bad_name"),  # nothing but a filler
    ],
)
def test_a_look_alike_or_invisible_name_cannot_join_beside_p1(
    api: str, name: str, code: str
) -> None:
    host = create(api, "P1")
    seated = join(api, host.code, "Bea")
    error = refused_join(api, host.code, name)
    assert error["code"] == code
    # who sits where is unchanged (presence may move meanwhile: the sweep reports it)
    assert names(api, host.code) == ["P1", "Bea"]
    assert seated.state()["you"]["seat"] == 1


def test_an_invisible_name_cannot_create_a_room(api: str) -> None:
    r = http.post(f"{api}/api/rooms", json={"name": "\u2800\u2800"})
    error = assert_error(r, 422, code="bad_name")
    assert error["message"] == "A name is 1 to 24 visible characters."


def test_emoji_names_still_join(api: str) -> None:
    host = create(api, "P1")
    for name in ["👩\u200d🚀 Ada", "❤\ufe0f Bo"]:
        join(api, host.code, name)
    assert names(api, host.code) == ["P1", "👩\u200d🚀 Ada", "❤\ufe0f Bo"]
    # a name of emoji alone holds no letter: it is nobody's name (422, with its reason)
    r = http.post(f"{api}/api/rooms/{host.code}/join", json={"name": "❤\ufe0f"})
    error = assert_error(r, 422, code="bad_name")
    assert error["message"] == "A name needs at least one letter, of any alphabet."


# --- clues ------------------------------------------------------------------------------------


def seat_facing(api: str, keyword: str) -> tuple[Player, int]:
    """A player of a fresh 3-player game, and the leaf of their clover that faces ``keyword``."""
    for _ in range(GAMES_TO_TRY):
        players = table(api, 3)
        players[0].act("start")
        for player in players:
            for leaf in player.state()["clover"]["leaves"]:
                if keyword in leaf["pair"]:
                    return player, leaf["leaf"]
    raise AssertionError(f"{keyword} faced no leaf in {GAMES_TO_TRY} games")


@pytest.mark.parametrize(
    ("keyword", "clue", "code"),
    [
        ("Frozen", "Frоzen", "mixed_scripts"),  # Cyrillic о
        ("Hive", "Hіve", "mixed_scripts"),  # Cyrillic і
        ("Athlete", "Αthlete", "mixed_scripts"),  # Greek Α
        ("Hope", "НОРЕ", "keyword"),  # all Cyrillic, HOPE to the eye
        ("Frozen", "Fro\u200bzen", "bad_character"),  # a zero-width space inside
    ],
)
def test_a_look_alike_clue_is_rejected_on_its_leaf(
    api: str, keyword: str, clue: str, code: str
) -> None:
    player, leaf = seat_facing(api, keyword)
    clues = [clue if i == leaf else None for i in range(4)]
    error = assert_error(player.post("clues", clues=clues), 422, code="clue_rejected")
    assert [(d["leaf"], d["code"]) for d in error["details"]] == [(leaf, code)]
    assert all(leaf["clue"] is None for leaf in player.state()["clover"]["leaves"])


def test_a_clue_all_in_cyrillic_is_saved(api: str) -> None:
    player, leaf = seat_facing(api, "Frozen")
    clues = ["Мороз" if i == leaf else None for i in range(4)]
    state = player.act("clues", clues=clues)
    assert state["clover"]["leaves"][leaf]["clue"] == "Мороз"
