"""Bad input gets a 4xx in the error shape, never a 500, and never changes the room.

One server serves the whole module (input errors must not depend on a fresh
process). Presence is made to hold still (a long grace, a quick sweep that has
settled before each comparison), so any change in the room's ``seq`` or state
across a refused request is the refused request's doing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from app.web.schemas import REQUESTS

from ..kit import (
    Player,
    Server,
    Stream,
    assert_error,
    create,
    http,
    join,
    public,
    room_when,
    start_and_write_clues,
    table,
)

ACTION_TYPES = sorted(REQUESTS)
"""Every action a player may send, from the actions' own declarations."""
JSON = {"content-type": "application/json"}
http = http.Client(timeout=10)
"""One client for the module: a new client per request costs more than the request."""


# --- fixtures and helpers ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def shared_server_settings() -> dict[str, str]:
    """Presence held still: a long grace, and a quick sweep."""
    return {"SOCLOVER_PRESENCE_GRACE_SECONDS": "3600", "SOCLOVER_PRESENCE_SWEEP_SECONDS": "0.1"}


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server.url


def settled(api: str, code: str) -> dict[str, Any]:
    """The public view once every seated player is shown present (no presence change pending).

    From then on presence holds still (the grace is an hour), so this module compares
    whole views, ``seq`` included, across a refused request.
    """
    return room_when(
        api,
        code,
        lambda state: all(p["present"] for p in state["players"]),
        what=f"every player of {code} shown present",
    )


@pytest.fixture(scope="module")
def game(api: str) -> list[Player]:
    """A three-player game in its first resolution, every player shown present."""
    players = table(api, 3)
    start_and_write_clues(players)
    settled(api, players[0].code)
    return players


@pytest.fixture(scope="module")
def guesser(game: list[Player]) -> Player:
    """The lock holder: a guesser who may do every resolution move."""
    holder = game[0].state()["resolution"]["lock_holder"]
    return game[holder]


@pytest.fixture(scope="module")
def lobby(api: str) -> list[Player]:
    players = table(api, 2)
    settled(api, players[0].code)
    return players


def post_raw(player: Player, body: bytes, headers: dict[str, str] | None = None) -> httpx.Response:
    return http.post(
        f"{player.base}/api/rooms/{player.code}/actions",
        content=body,
        headers={**player.headers, **JSON, **(headers or {})},
        timeout=10,
    )


def refused_unchanged(
    player: Player, body: bytes, *statuses: int, headers: dict[str, str] | None = None
) -> dict[str, Any]:
    before = public(player.base, player.code)
    r = post_raw(player, body, headers)
    error = assert_error(r, *statuses)
    assert public(player.base, player.code) == before, "a refused request changed the room"
    return error


def dumps(value: Any) -> bytes:
    return json.dumps(value).encode()


# --- malformed and non-object JSON ------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        b"{",
        b'{"type": "say", "text": "hi"',
        b'{"type":"say",}',
        b"{'type': 'say', 'text': 'hi'}",
        b"\xff\xfe\x00{",
        b'{"type":"say","text":"\xed\xa0\x80"}',  # a surrogate encoded as UTF-8: not UTF-8
        b"[" * 20000 + b"]" * 20000,
        b'{"a":' * 5000 + b"1" + b"}" * 5000,
    ],
    ids=["open", "unclosed", "trailing-comma", "single-quotes", "binary", "utf8-surrogate",
         "deep-list", "deep-object"],
)  # fmt: skip
def test_malformed_json_is_400(guesser: Player, body: bytes) -> None:
    refused_unchanged(guesser, body, 400, 422)


@pytest.mark.parametrize(
    "body", [b"", b"[]", b'"say"', b"42", b"null", b"true", b'[{"type": "say", "text": "hi"}]']
)
def test_a_body_that_is_not_one_object_is_refused(guesser: Player, body: bytes) -> None:
    refused_unchanged(guesser, body, 400, 422)


# --- wrong types, missing fields, unknown types and fields ------------------------------------


def _card(game: list[Player]) -> str:
    return game[0].state()["resolution"]["pool"][0]["card"]


WRONG_TYPES: list[dict[str, Any]] = [
    {"type": "place", "spot": "0", "rotation": 0},
    {"type": "place", "spot": 0.0, "rotation": 0},
    {"type": "place", "spot": 1.5, "rotation": 0},
    {"type": "place", "spot": True, "rotation": 0},
    {"type": "place", "spot": None, "rotation": 0},
    {"type": "place", "spot": [0], "rotation": 0},
    {"type": "place", "spot": {"n": 0}, "rotation": 0},
    {"type": "place", "spot": 0, "rotation": "1"},
    {"type": "place", "spot": 0, "rotation": False},
    {"type": "place", "spot": 0, "rotation": None},
    {"type": "place", "card": 123, "spot": 0, "rotation": 0},
    {"type": "place", "card": None, "spot": 0, "rotation": 0},
    {"type": "place", "card": ["x"], "spot": 0, "rotation": 0},
    {"type": "rotate", "spot": 0, "turns": "1"},
    {"type": "rotate", "spot": 0, "turns": 1.0},
    {"type": "remove", "spot": "zero"},
    {"type": "say", "text": 5},
    {"type": "say", "text": ["hi"]},
    {"type": "say", "text": None},
    {"type": "say", "text": True},
    {"type": "clues", "clues": "abcd"},
    {"type": "clues", "clues": [1, 2, 3, 4]},
    {"type": "clues", "clues": ["a", "b", "c"]},
    {"type": "clues", "clues": ["a", "b", "c", "d", "e"]},
    {"type": "clues", "clues": {"0": "a"}},
    {"type": "settings", "decoys": "2"},
    {"type": "settings", "decoys": 2.5},
    {"type": "settings", "decoys": None},
    {"type": "kick", "seat": True},
    {"type": "kick", "seat": "1"},
    {"type": "agree", "seq": "3"},
    {"type": "agree", "seq": 1.0},
    {"type": 5},
    {"type": ["say"]},
    {"type": {"say": 1}},
    {"type": None},
    {"type": True},
]


@pytest.mark.parametrize("action", WRONG_TYPES, ids=lambda a: json.dumps(a)[:60])
def test_wrong_types_are_422(game: list[Player], guesser: Player, action: dict) -> None:
    if action.get("type") == "place" and "card" not in action:
        action = {**action, "card": _card(game)}
    error = refused_unchanged(guesser, dumps(action), 422)
    assert error["code"] == "invalid_request"


MISSING = [
    {"type": "place", "spot": 0, "rotation": 0},  # no card
    {"type": "place", "card": "CARD", "rotation": 0},  # no spot
    {"type": "rotate", "spot": 0},  # no turns
    {"type": "rotate", "turns": 1},  # no spot
    {"type": "remove"},
    {"type": "say"},
    {"type": "clues"},
    {"type": "settings"},
    {"type": "kick"},
    {"text": "hi"},  # no type
    {},
]


@pytest.mark.parametrize("action", MISSING, ids=lambda a: json.dumps(a)[:60])
def test_missing_fields_are_422(game: list[Player], guesser: Player, action: dict) -> None:
    if action.get("card") == "CARD":
        action = {**action, "card": _card(game)}
    refused_unchanged(guesser, dumps(action), 422)


@pytest.mark.parametrize(
    "kind",
    ["fly", "SAY", "Say", "say ", "", "__proto__", "join", "create", "presence", "constructor",
     "x" * 5000, "\ud800", "say\u0000", "\u202esay"],
)  # fmt: skip
def test_unknown_action_types_are_422(guesser: Player, kind: str) -> None:
    """Including the server's own actions (join, presence): no client may send those."""
    refused_unchanged(guesser, dumps({"type": kind, "text": "hi"}), 422)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "say", "text": "hi", "admin": True},
        {"type": "say", "text": "hi", "seat": 0},
        {"type": "agree", "seat": 0},
        {"type": "unagree", "pid": 1},
        {"type": "next", "force": True},
        {"type": "say", "text": "hi", "at": "2000-01-01T00:00:00Z"},
        {"type": "start", "seed": 1},
        {"type": "say", "text": "hi", "": None},
    ],
    ids=lambda a: json.dumps(a)[:60],
)
def test_unknown_extra_fields_are_422(guesser: Player, action: dict) -> None:
    """Nobody speaks for another seat or sets the seed or time: extra fields are refused."""
    error = refused_unchanged(guesser, dumps(action), 422)
    assert error["code"] == "invalid_request"


# --- numbers out of range ---------------------------------------------------------------------


BIG = 10**30


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "place", "spot": BIG, "rotation": 0}, "invalid_request"),
        ({"type": "place", "spot": -BIG, "rotation": 0}, "invalid_request"),
        ({"type": "place", "spot": 2**63, "rotation": 0}, "invalid_request"),
        ({"type": "place", "spot": 4, "rotation": 0}, "bad_spot"),
        ({"type": "place", "spot": -1, "rotation": 0}, "bad_spot"),
        ({"type": "place", "spot": 0, "rotation": 4}, "bad_rotation"),
        ({"type": "place", "spot": 0, "rotation": -1}, "bad_rotation"),
        ({"type": "place", "spot": 0, "rotation": BIG}, "invalid_request"),
        ({"type": "rotate", "spot": 0, "turns": 2}, "bad_turns"),
        ({"type": "rotate", "spot": 0, "turns": 0}, "bad_turns"),
        ({"type": "rotate", "spot": 0, "turns": -BIG}, "invalid_request"),
        ({"type": "remove", "spot": 1_000_000}, "bad_spot"),
        ({"type": "remove", "spot": 1_000_001}, "invalid_request"),
        ({"type": "say", "text": "hi", "seq": BIG}, "invalid_request"),
        ({"type": "say", "text": "hi", "seq": -1}, "stale"),
        ({"type": "settings", "decoys": BIG}, "invalid_request"),
    ],
    ids=lambda v: json.dumps(v)[:50] if isinstance(v, dict) else v,
)
def test_out_of_range_numbers_are_refused(
    game: list[Player], guesser: Player, action: dict, code: str
) -> None:
    if action["type"] == "place":
        action = {**action, "card": _card(game)}
    assert refused_unchanged(guesser, dumps(action), 409, 422)["code"] == code


@pytest.mark.parametrize("number", [b"1e400", b"-1e400", b"NaN", b"Infinity", b"1e308", b"0.5"])
def test_non_integer_numbers_are_422(game: list[Player], guesser: Player, number: bytes) -> None:
    body = b'{"type":"place","card":%s,"spot":%s,"rotation":0}' % (
        json.dumps(_card(game)).encode(),
        number,
    )
    refused_unchanged(guesser, body, 422)


def test_out_of_range_numbers_on_create_are_422(api: str) -> None:
    for decoys in (BIG, -BIG, 0, 5, -1, 2**64):
        r = http.post(f"{api}/api/rooms", json={"name": "Ada", "decoys": decoys})
        assert_error(r, 422)


# --- sizes ------------------------------------------------------------------------------------


def test_a_100_kb_body_is_413_everywhere(api: str, guesser: Player, lobby: list[Player]) -> None:
    huge = b'{"type":"say","text":"' + b"x" * 100_000 + b'"}'
    refused_unchanged(guesser, huge, 413)
    huge_name = b'{"name":"' + b"x" * 100_000 + b'"}'
    assert_error(http.post(f"{api}/api/rooms", content=huge_name, headers=JSON), 413)
    before = public(api, lobby[0].code)
    r = http.post(f"{api}/api/rooms/{lobby[0].code}/join", content=huge_name, headers=JSON)
    assert assert_error(r, 413)["code"] == "too_large"
    assert public(api, lobby[0].code) == before


def test_a_100_kb_body_without_a_length_is_413_too(guesser: Player) -> None:
    """A chunked body (no Content-Length) is cut off while it arrives, not parsed."""

    def chunks() -> Iterator[bytes]:
        yield b'{"type":"say","text":"'
        for _ in range(100):
            yield b"x" * 1024
        yield b'"}'

    before = public(guesser.base, guesser.code)
    r = http.post(
        f"{guesser.base}/api/rooms/{guesser.code}/actions",
        content=chunks(),
        headers={**guesser.headers, **JSON},
    )
    assert assert_error(r, 413)["code"] == "too_large"
    assert public(guesser.base, guesser.code) == before


def test_a_10_kb_name_is_422(api: str, lobby: list[Player]) -> None:
    name = "N" * 10_000
    assert_error(http.post(f"{api}/api/rooms", json={"name": name}), 422)
    before = public(api, lobby[0].code)
    assert_error(http.post(f"{api}/api/rooms/{lobby[0].code}/join", json={"name": name}), 422)
    assert public(api, lobby[0].code) == before


@pytest.mark.parametrize(
    "action",
    [
        {"type": "say", "text": "x" * 10_000},
        {"type": "say", "text": "x" * 301},
        {"type": "place", "card": "c" * 10_000, "spot": 0, "rotation": 0},
        {"type": "clues", "clues": ["x" * 10_000, "a", "b", "c"]},
    ],
    ids=["say-10k", "say-301", "card-10k", "clue-10k"],
)
def test_long_strings_in_actions_are_422(guesser: Player, action: dict) -> None:
    refused_unchanged(guesser, dumps(action), 422)


# --- unicode oddities -------------------------------------------------------------------------


ODD_NAMES = [
    "\u0000",
    "Ada\u0000",
    "\ud800",
    "Ada\udfff",
    "\u200f",
    "\u202e\u202d",
    "\u200b",
    "\ufeff",
    "   ",
    "\n\t",
]


@pytest.mark.parametrize("name", ODD_NAMES, ids=lambda n: n.encode("unicode_escape").decode())
def test_odd_names_are_422_on_create_and_join(api: str, lobby: list[Player], name: str) -> None:
    body = dumps({"name": name})  # lone surrogates travel as \ud800 escapes
    assert_error(http.post(f"{api}/api/rooms", content=body, headers=JSON), 422)
    before = public(api, lobby[0].code)
    r = http.post(f"{api}/api/rooms/{lobby[0].code}/join", content=body, headers=JSON)
    assert_error(r, 422)
    assert public(api, lobby[0].code) == before


def test_a_name_with_rtl_marks_inside_real_letters_is_kept_as_sent(api: str) -> None:
    r = http.post(f"{api}/api/rooms", json={"name": "עדה"})
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    assert public(api, code)["players"][0]["name"] == "עדה"


@pytest.mark.parametrize(
    "text", ["\ud800", "hi \udfff there", "\ud83d"], ids=["lone-high", "lone-low", "half-emoji"]
)
def test_lone_surrogates_in_chat_are_422(guesser: Player, text: str) -> None:
    refused_unchanged(guesser, dumps({"type": "say", "text": text}), 422)


@pytest.mark.parametrize(
    "text",
    ["a\u0000b", "\u202eevil.exe", "שלום\u200f!", "\u200b", "\ufeffhi", "e\u0301", "🍀" * 300],
    ids=["nul", "rlo", "rlm", "zwsp", "bom", "combining", "300-clovers"],
)
def test_other_odd_chat_is_refused_cleanly_or_kept_exactly(guesser: Player, text: str) -> None:
    """Never a 500; if the line is accepted it reads back as sent, in the JSON and the room."""
    before = public(guesser.base, guesser.code)
    r = guesser.post("say", text=text)
    if r.status_code == 200:
        chat = public(guesser.base, guesser.code)["chat"]
        assert chat[-1]["text"] == text.strip()
        assert r.json()["state"]["chat"][-1]["text"] == text.strip()
    else:
        assert_error(r, 422)
        assert public(guesser.base, guesser.code) == before


def test_odd_clues_are_rejected_with_details_and_nothing_saved(api: str) -> None:
    players = table(api, 3)
    players[0].act("start")
    settled(api, players[0].code)
    for odd in ["a\u0000b", "\u200fשלום", "\u202eabc", "ab\u200bcd", "\ufeffabc", "\ud800"]:
        before = players[0].state()
        r = post_raw(
            players[0], dumps({"type": "clues", "clues": [odd, "Qzone", "Qzbis", "Qzter"]})
        )
        error = assert_error(r, 422)
        if odd != "\ud800":
            assert error["code"] == "clue_rejected"
            assert [d["leaf"] for d in error["details"]] == [0]
        assert players[0].state() == before


# --- content types ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {"content-type": "text/plain"},
        {"content-type": "application/x-www-form-urlencoded"},
        {"content-type": "multipart/form-data; boundary=xyz"},
        {"content-type": "application/xml"},
        {"content-type": "text/html; charset=utf-8"},
        {"content-type": "nonsense"},
        {"content-type": ""},
    ],
    ids=lambda h: h["content-type"] or "empty",
)
def test_a_wrong_content_type_is_refused(guesser: Player, headers: dict[str, str]) -> None:
    refused_unchanged(guesser, dumps({"type": "say", "text": "hi"}), 400, 415, 422, headers=headers)


def test_a_form_post_is_refused(guesser: Player) -> None:
    before = public(guesser.base, guesser.code)
    r = http.post(
        f"{guesser.base}/api/rooms/{guesser.code}/actions",
        data={"type": "say", "text": "hi"},
        headers=guesser.headers,
    )
    assert_error(r, 400, 415, 422)
    assert public(guesser.base, guesser.code) == before


# --- room codes -------------------------------------------------------------------------------


def _lookalikes(code: str) -> list[str]:
    swaps = {"0": "O", "O": "0", "1": "I", "I": "L", "L": "1"}
    out = ["O0O0O", "IIIII", "LLLLL", "11111", "OOOOOO", "0" + code[1:], code[:-1] + "1"]
    out += [code[:2] + swaps.get(code[2], "O") + code[3:]]
    return out


@pytest.mark.parametrize(
    "code",
    ["ZZZZZZ", "ABCD", "A" * 13, "A" * 1000, "ＡＢＣＤＥ", "ABC DE", "ABC%00DE", "%F0%9F%8D%80" * 3,
     "..%2F..%2Fetc", "ABCDE%2Factions"],
)  # fmt: skip
def test_unknown_or_invalid_room_codes_are_404(api: str, code: str) -> None:
    for r in (
        http.get(f"{api}/api/rooms/{code}"),
        http.get(f"{api}/api/rooms/{code}/events"),
        http.post(f"{api}/api/rooms/{code}/join", json={"name": "Zed"}),
    ):
        assert r.status_code in (404, 405), f"{r.request.method} {r.request.url}: {r.text}"
        assert_error(r)
    # An action without a seat is 401 whether or not the code could be a room's: a 404
    # for unknown codes would tell a stranger which are rooms (tests/web/test_strangers.py).
    r = http.post(f"{api}/api/rooms/{code}/actions", json={"type": "say", "text": "hi"})
    assert assert_error(r, 401, 404)["code"] in ("not_seated", "room_not_found", "not_found")


def test_lookalike_codes_are_404_and_never_reach_the_room(api: str, lobby: list[Player]) -> None:
    code = lobby[0].code
    before = public(api, code)
    for other in _lookalikes(code):
        for r in (
            http.get(f"{api}/api/rooms/{other}", headers=lobby[0].headers),
            http.post(f"{api}/api/rooms/{other}/join", json={"name": "Zed"}),
            http.post(
                f"{api}/api/rooms/{other}/actions",
                json={"type": "settings", "decoys": 3},
                headers=lobby[0].headers,
            ),
        ):
            assert assert_error(r, 404)["code"] in ("room_not_found", "not_found")
    assert public(api, code) == before
    # the real code, in any case, is the room
    assert public(api, code.lower())["code"] == code


# --- seat tokens ------------------------------------------------------------------------------


def test_actions_without_a_valid_seat_are_401(api: str, guesser: Player) -> None:
    other = create(api, "Other")
    url = f"{api}/api/rooms/{guesser.code}/actions"
    before = public(api, guesser.code)
    for auth in [
        None,
        "",
        "Bearer",
        "Bearer garbage",
        f"Bearer {guesser.token[:-1]}",
        f"Bearer {guesser.token}x",
        f"Bearer {other.token}",  # a seat in another room
        f"Basic {guesser.token}",
        f"Token {guesser.token}",
        f"Bearer{guesser.token}",
        "Bearer " + "A" * 5000,
        "Bearer \u00ff\u00fe",
    ]:
        headers = {} if auth is None else {"Authorization": auth.encode("latin-1")}
        r = http.post(url, json={"type": "unagree"}, headers=headers)
        assert assert_error(r, 401)["code"] == "not_seated", auth
    assert public(api, guesser.code) == before


@pytest.mark.parametrize(
    "auth",
    [
        b"Bearer garbage",
        b"Bearer",
        b"Basic Zm9vOmJhcg==",
        b"Bearer \xff\xfe\x80",
        b"Bearer " + b"A" * 5000,
        b"bearer  x  y  z",
        b"\xe2\x80\xae",
    ],
)
def test_a_get_with_a_garbage_authorization_is_the_public_view(
    guesser: Player, auth: bytes
) -> None:
    r = http.get(f"{guesser.base}/api/rooms/{guesser.code}", headers={"Authorization": auth})
    assert r.status_code == 200, r.text
    state = r.json()
    assert state["you"] is None
    assert state["resolution"]["solution"] is None


@pytest.mark.parametrize(
    "last", ["abc", "-5", "1.5", "", "99999999999999999999999", "１２", "\u00ff", "0x10", "3 4"]
)
def test_a_bad_last_event_id_still_streams(guesser: Player, last: str) -> None:
    url = f"{guesser.base}/api/rooms/{guesser.code}/events"
    headers = {**guesser.headers, "Last-Event-ID": last.encode("utf-8")}
    stream = Stream(url, headers)
    try:
        assert stream.status == 200
        assert stream.response_headers is not None
        assert stream.response_headers["content-type"].startswith("text/event-stream")
        first = stream.next(5)
    finally:
        stream.close()
    data = first.json
    assert first.event == "state" and first.id is not None and int(first.id) == data["seq"]
    assert data["state"]["code"] == guesser.code


def test_legends_with_bad_filters_are_422(api: str) -> None:
    for query in [
        "players=abc",
        "players=9",
        "players=" + "9" * 40,
        "decoys=0",
        "decoys=1.5",
        "limit=0",
        "limit=101",
        "limit=-1",
        "room=" + "X" * 100,
    ]:
        assert_error(http.get(f"{api}/api/legends?{query}"), 422)
    # no room has that code: 404, as for any room the caller has no seat in
    assert assert_error(http.get(f"{api}/api/legends?room=%00"), 404)["code"] == "room_not_found"


# --- properties: random JSON never gets a 500 -------------------------------------------------


ODD_CHARS = st.sampled_from(["\ud800", "\udfff", "\u0000", "\u200f", "\u202e", "\ufeff", "🍀", " "])
TEXT = st.text(st.characters() | ODD_CHARS, max_size=40)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-3, 6)
    | st.floats(allow_nan=True, allow_infinity=True)
    | TEXT
)
VALUES = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


FIELDS: dict[str, list[str]] = {
    "settings": ["decoys"],
    "clues": ["clues"],
    "place": ["card", "spot", "rotation"],
    "remove": ["spot"],
    "rotate": ["spot", "turns"],
    "say": ["text"],
    "kick": ["seat"],
    "drop": ["seat"],
}


def actions(cards: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """Actions of every real type with their own fields, values plausible or not, maybe extras."""
    small = st.integers(-1, 4)
    value = {
        "card": st.sampled_from(cards) | VALUES,
        "spot": small | VALUES,
        "rotation": small | VALUES,
        "turns": st.sampled_from([1, -1]) | small | VALUES,
        "decoys": st.integers(0, 5) | VALUES,
        "seat": small | VALUES,
        "text": TEXT | VALUES,
        "clues": st.lists(TEXT | st.none(), min_size=4, max_size=4)
        | st.lists(TEXT, max_size=6)
        | VALUES,
    }

    def of(kind: str, extras: bool) -> st.SearchStrategy[dict[str, Any]]:
        required = {"type": st.just(kind), **{f: value[f] for f in FIELDS.get(kind, [])}}
        optional = {"seq": st.integers(-1, 200) | VALUES}
        if extras:  # another action's fields, or a made-up one
            optional |= {f: v for f, v in value.items() if f not in required}
            optional["extra"] = VALUES
        return st.fixed_dictionaries(required, optional=optional)

    kinds = st.sampled_from(ACTION_TYPES)
    return kinds.flatmap(lambda k: of(k, False)) | kinds.flatmap(lambda k: of(k, True))


def send(url: str, value: Any, headers: dict[str, str]) -> httpx.Response:
    body = json.dumps(value).encode()  # NaN and Infinity included, as Python writes them
    return http.post(url, content=body, headers={**headers, **JSON}, timeout=10)


def test_random_actions_never_500_and_refusals_change_nothing(
    game: list[Player], guesser: Player
) -> None:
    cards = [c["card"] for c in guesser.state()["resolution"]["pool"]]
    url = f"{guesser.base}/api/rooms/{guesser.code}/actions"
    seen: set[int] = set()

    @settings(
        max_examples=150,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(value=VALUES | actions(cards) | actions(cards))
    def check(value: Any) -> None:
        before = public(guesser.base, guesser.code)
        r = send(url, value, guesser.headers)
        event(f"status {r.status_code}")
        seen.add(r.status_code)
        assert r.status_code < 500, f"{value!r}: {r.status_code} {r.text[:300]}"
        if r.status_code >= 400:
            assert_error(r)
        if r.status_code != 200:
            assert public(guesser.base, guesser.code) == before, f"{value!r} changed the room"
        else:
            assert r.json()["seq"] == before["seq"] + 1

    check()
    # the examples reached the rules, not only the parser
    assert {409, 422} <= seen, seen


def test_random_bodies_to_create_and_join_never_500(api: str, lobby: list[Player]) -> None:
    code = lobby[0].code
    names = TEXT | st.sampled_from(["Zed", "Ada", "ada", " Zed ", "x" * 24, "x" * 25]) | VALUES
    bodies = VALUES | st.fixed_dictionaries(
        {"name": names}, optional={"decoys": VALUES | st.integers(-1, 6), "extra": VALUES}
    )

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(value=bodies, to_join=st.booleans())
    def check(value: Any, to_join: bool) -> None:
        if not to_join:
            r = send(f"{api}/api/rooms", value, {})
            event(f"create {r.status_code}")
            assert r.status_code < 500, f"{value!r}: {r.status_code} {r.text[:300]}"
            if r.status_code >= 400:
                assert_error(r)
            else:
                assert r.status_code == 201 and set(r.json()) == {"code", "token", "seat"}
            return
        before = public(api, code)
        r = send(f"{api}/api/rooms/{code}/join", value, {})
        event(f"join {r.status_code}")
        assert r.status_code < 500, f"{value!r}: {r.status_code} {r.text[:300]}"
        if r.status_code >= 400:
            assert_error(r)
        if r.status_code != 201:
            assert public(api, code) == before, f"{value!r} changed the room"
            return
        # a newcomer: seated with the name as cleaned, then leaves to keep the room open
        seat = r.json()
        newcomer = Player(api, code, seat["token"], seat["seat"], "?")
        assert len(newcomer.state()["players"]) == len(before["players"]) + 1
        newcomer.act("leave")
        settled(api, code)

    check()


def test_a_refused_join_keeps_the_room_as_it_was(api: str) -> None:
    players = table(api, 3)
    players[0].act("start")
    before = settled(api, players[0].code)
    r = http.post(f"{api}/api/rooms/{players[0].code}/join", json={"name": "Late"})
    assert assert_error(r, 409)["code"] == "game_started"
    assert public(api, players[0].code) == before
    # and a fresh seat still works in a lobby
    assert join(api, create(api, "Hostess Ada").code, "Zed").seat == 1


# --- numbers in forms -------------------------------------------------------------------------


NOT_PLAIN_NUMBERS = ["²", "①", "٣", "３", "3_0", "1e1", "0x1", "9" * 50, "", " ", "one"]
"""What ``str.isdigit()`` or ``int()`` would take (or stumble on), and a form never means."""


def _page_refusal(r: httpx.Response, status: int) -> None:
    """A refusal as a page of its own status, with the security headers, no cookie set."""
    assert r.status_code == status, f"{r.request.url}: {r.status_code} {r.text[:300]}"
    assert r.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff"
    assert "set-cookie" not in r.headers


@pytest.mark.parametrize("seat", NOT_PLAIN_NUMBERS, ids=ascii)
def test_a_seat_request_form_takes_plain_digits_only(api: str, seat: str) -> None:
    """``seat=²`` passed ``str.isdigit()`` and broke ``int()``: a 500 without headers."""
    ada = table(api, 3)[0]
    before = settled(api, ada.code)
    here = f"198.19.{NOT_PLAIN_NUMBERS.index(seat)}.1"  # seat requests are limited per address
    r = http.post(
        f"{api}/r/{ada.code}/claim",
        data={"seat": seat},
        headers={"Origin": api, "X-Forwarded-For": here},
    )
    _page_refusal(r, 422)
    assert "Choose the seat that is yours." in r.text
    assert settled(api, ada.code) == before
    assert ada.state()["claims"] == []


@pytest.mark.parametrize("decoys", [d for d in NOT_PLAIN_NUMBERS if d.strip()], ids=ascii)
def test_the_forms_number_of_decoys_takes_plain_digits_only(api: str, decoys: str) -> None:
    """``int()`` read ``٣`` and ``３`` as 3: a room was made, a setting changed."""
    r = http.post(f"{api}/rooms", data={"name": "Ada", "decoys": decoys}, headers={"Origin": api})
    _page_refusal(r, 422)
    host = create(api, "Ada")
    r = http.post(
        f"{api}/r/{host.code}/act",
        data={"type": "settings", "decoys": decoys},
        headers={"Origin": api, "Cookie": f"soclover_{host.code}={host.token}"},
    )
    _page_refusal(r, 422)
    assert host.state()["decoys"] == 1


def test_plain_numbers_in_forms_still_work(api: str) -> None:
    host = create(api, "Ada")
    r = http.post(
        f"{api}/r/{host.code}/act",
        data={"type": "settings", "decoys": " 3 "},
        headers={"Origin": api, "Cookie": f"soclover_{host.code}={host.token}"},
    )
    assert r.status_code == 303, r.text
    assert host.state()["decoys"] == 3
