"""The news line of a page just opened: never blank, in every phase and language, and the
very sentence the page's live stream sends when it starts (one template renders both)."""

from __future__ import annotations

import html
import re

import pytest

from ..kit import Player, Server, create, http, join, public, solution, spectator_of
from ..kit.players import clues_for
from ..kit.stream import Stream

LANGUAGES = {"en": "en", "fr": "fr-FR,fr;q=0.9", "zh": "zh-CN,zh;q=0.9"}
NEWS = re.compile(r'<p id="announce"[^>]*>(.*?)</p>', re.S)


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server.url


def _headers(seat: Player, lang: str) -> dict[str, str]:
    return {"Cookie": f"soclover_{seat.code}={seat.token}", "Accept-Language": LANGUAGES[lang]}


def _text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def page_news(seat: Player, lang: str) -> str:
    """The news line of the room's page as it is first sent to ``seat``."""
    r = http.get(f"{seat.base}/r/{seat.code}", headers=_headers(seat, lang))
    assert r.status_code == 200, r.text
    found = NEWS.search(r.text)
    assert found, "no news line on the page"
    return _text(found.group(1))


def stream_news(seat: Player, lang: str) -> str:
    """The news line the page's live stream sends first, as it starts."""
    stream = Stream(f"{seat.base}/r/{seat.code}/stream", _headers(seat, lang))
    try:
        for _ in range(10):
            event = stream.next()
            if event.event == "announce":
                return _text(event.data)
    finally:
        stream.close()
    raise AssertionError("the stream sent no news line")


def _play_out(players: list[Player]) -> None:
    while public(players[0].base, players[0].code)["phase"] != "finished":
        spectator = spectator_of(players)
        guessers = [p for p in players if p.seat != spectator.seat]
        for slot in solution(players):
            guessers[0].act(
                "place", card=slot["card"], spot=slot["spot"], rotation=slot["rotation"]
            )
        for guesser in guessers:
            guesser.act("agree")
        guessers[0].act("next")


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_a_page_opened_in_any_phase_says_what_the_table_does(api: str, lang: str) -> None:
    host = create(api, "Ada")
    said: dict[str, str] = {}

    def opened(seat: Player, moment: str) -> None:
        news = page_news(seat, lang)
        assert news, f"a blank news line: {moment}, {lang}"
        assert stream_news(seat, lang) == news, moment
        said[moment] = news

    opened(host, "the host alone in the lobby")
    players = [host, join(api, host.code, "Bea"), join(api, host.code, "Cy")]
    opened(players[1], "the lobby, once enough are seated")
    host.act("start")
    opened(host, "clues to write")
    for p in players:
        p.act("clues", clues=clues_for(p.seat))
    host.act("done")
    opened(host, "clues in, others writing")
    for p in players[1:]:
        p.act("done")
    spectator = spectator_of(players)
    guessers = [p for p in players if p.seat != spectator.seat]
    opened(spectator, "the Spectator's clover rebuilt")
    opened(guessers[0], "a clover to rebuild")
    _wrong(players, guessers)
    opened(guessers[0], "the last try")
    res = guessers[0].state()["resolution"]
    empty = [slot["spot"] for slot in res["board"] if slot["card"] is None]
    for spot, card in zip(empty, res["pool"], strict=False):
        guessers[0].act("place", card=card["card"], spot=spot)
    for guesser in guessers:
        guesser.act("agree")
    opened(guessers[0], "a clover checked")
    guessers[0].act("next")
    _play_out(players)
    opened(host, "the game over")
    # each moment its own sentence
    assert len(set(said.values())) == len(said), said
    if lang != "en":
        english = {
            "the host alone in the lobby": "Invite 2 more",
            "clues to write": "Write a clue on",
            "the last try": "Last try on",
        }
        for moment, word in english.items():
            assert word not in said[moment], (moment, said[moment])


def _wrong(players: list[Player], guessers: list[Player]) -> None:
    """A first try all wrong, and agreed: the clover's last try begins."""
    cards = [c["card"] for c in guessers[0].state()["resolution"]["pool"]]
    truth = {s["spot"]: s["card"] for s in solution(players)}
    for spot in range(4):
        wrong = next(c for c in cards if c != truth[spot])
        cards.remove(wrong)
        guessers[0].act("place", card=wrong, spot=spot)
    for guesser in guessers:
        guesser.act("agree")
