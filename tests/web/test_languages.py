"""A room's language, over HTTP: the deck it deals from and how its clues are checked."""

from __future__ import annotations

from collections.abc import Callable

import opencc
import pytest

from ..kit import ROOT, Player, Server, assert_error, create, http, join, table


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server.url


FR_DECK = (ROOT / "keywords.fr.txt").read_text(encoding="utf-8").splitlines()


def seated_in(api: str, language: str) -> list[Player]:
    r = http.post(f"{api}/api/rooms", json={"name": "Ada", "language": language})
    assert r.status_code == 201, r.text
    body = r.json()
    ada = Player(api, body["code"], body["token"], body["seat"], "Ada")
    return [ada, join(api, ada.code, "Bea"), join(api, ada.code, "Cy")]


def test_a_chinese_room_deals_chinese_cards_and_checks_chinese_clues(api: str) -> None:
    players = seated_in(api, "zh")
    ada = players[0]
    assert ada.state()["language"] == "zh"
    assert "zh" in ada.state()["limits"]["languages"]
    ada.act("start")
    leaves = ada.state()["clover"]["leaves"]
    words = [w for leaf in leaves for w in leaf["pair"]]
    assert all("\u4e00" <= ch <= "\u9fff" for w in words for ch in w), words
    # The keyword in Traditional characters is the keyword.
    traditional = opencc.OpenCC("s2t")
    changed = next((w for w in words if traditional.convert(w) != w), None)
    if changed is not None:
        r = ada.post("clues", clues=[traditional.convert(changed), None, None, None])
        assert_error(r, 422, code="clue_rejected")
    r = ada.post("clues", clues=[words[0], None, None, None])
    assert_error(r, 422, code="clue_rejected")
    # A clue holding a keyword is warned, and saved.
    state = ada.act("clues", clues=[words[0] + "们", None, None, None])
    assert state["clover"]["leaves"][0]["clue"] == words[0] + "们"
    assert [w["leaf"] for w in state["warnings"]] == [0]


def test_a_french_room_deals_french_cards_and_checks_french_clues(api: str) -> None:
    players = seated_in(api, "fr")
    ada = players[0]
    ada.act("start")
    words = [w for leaf in ada.state()["clover"]["leaves"] for w in leaf["pair"]]
    french = {w.strip() for line in FR_DECK if line and line[0] != "#" for w in line.split(",")}
    assert set(words) <= french, words
    plural = next(w for w in words if not w.endswith(("s", "x", "z")))
    assert_error(ada.post("clues", clues=[plural + "s", None, None, None]), 422)
    assert_error(ada.post("clues", clues=[f"l'{words[0]}", None, None, None]), 422)
    assert ada.act("clues", clues=["Zorglub", None, None, None])["clover"]["leaves"][0]["clue"]


def test_the_host_chooses_the_language_in_the_lobby(api: str) -> None:
    ada, bea, _ = table(api, 3)
    assert ada.state()["language"] == "en"
    assert_error(bea.post("language", language="zh"), 403, code="not_host")
    assert_error(ada.post("language", language="xx"), 422, code="bad_language")
    assert ada.act("language", language="zh")["language"] == "zh"
    ada.act("start")
    words = [w for leaf in ada.state()["clover"]["leaves"] for w in leaf["pair"]]
    assert all("\u4e00" <= ch <= "\u9fff" for w in words for ch in w), words
    assert_error(ada.post("language", language="en"), 409, code="wrong_phase")


def test_an_english_room_is_as_before_and_an_unknown_language_is_refused(api: str) -> None:
    assert create(api, "Ada").state()["language"] == "en"
    r = http.post(f"{api}/api/rooms", json={"name": "Ada", "language": "klingon"})
    assert_error(r, 422)


def test_legends_carry_their_language_and_filter_on_it(
    make_server: Callable[..., Server],
) -> None:
    api = make_server().url  # its own: the legends are the whole server's
    players = seated_in(api, "zh")
    ada = players[0]
    ada.act("start")
    for p in players:
        p.act("clues", clues=[f"Qz{p.seat}{leaf}" for leaf in range(4)])
        p.act("done")
    state = ada.state()
    while state["phase"] == "resolution":
        res = state["resolution"]
        holder = players[res["lock_holder"]]
        truth = players[res["spectator"]].state()["resolution"]["solution"]
        for s in truth:
            holder.act("place", card=s["card"], spot=s["spot"], rotation=s["rotation"])
        holder.act("lock")
        state = holder.act("next")
    assert state["phase"] == "finished"
    zh = http.get(f"{api}/api/legends", params={"language": "zh"}).json()["legends"]
    assert [legend["language"] for legend in zh] == ["zh"]
    assert http.get(f"{api}/api/legends", params={"language": "fr"}).json()["legends"] == []
    assert_error(http.get(f"{api}/api/legends", params={"language": "xx"}), 422)
