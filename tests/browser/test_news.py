"""The news line on a phone: always there, always whole, and a page that keeps its place.

Every page opened fresh says where the table stands; the longest sentence each phase
can say is read whole at 360 x 740 in French (the longest language), with the table's
clock and its pause button in the line or without; the offline warning leaves once
the move it held is sent again; "Play again" and Done leave the page where the
player's next step is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

import pytest

from app.web import render

from .. import kit
from .conftest import PHONE, OpenPlayer, Player


@pytest.fixture
def server(shared_server: kit.Server) -> kit.Server:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server


LOCALES = {"en": "en-GB", "fr": "fr-FR", "zh": "zh-CN"}
# Names of ten letters, as long as most people's: the sentences that name two of them
# are the longest a phase says.
NAMES = ["Maximilien", "Géraldine", "Bérénice"]

# The news line read as a person reads it: its text, whether any of it is cut (overflow
# hidden past its box, an ellipsis, a line clamp), where it stands on the screen, where
# the page's own content starts under it, and where the clock's buttons are.
NEWS_JS = """() => {
    const news = document.querySelector("#announce");
    const style = getComputedStyle(news);
    const r = news.getBoundingClientRect();
    // the room the page keeps for the header and the news line: its content starts there
    const root = getComputedStyle(document.documentElement);
    const reserved = parseFloat(root.getPropertyValue("--head-h"))
        + parseFloat(root.getPropertyValue("--news-h"));
    const clock = "#stage .clock-box button, #stage .clock-box .clock";
    const buttons = [...document.querySelectorAll(clock)].map(b => {
        const q = b.getBoundingClientRect();
        return [q.top, q.bottom, q.right];
    });
    return {
        text: news.innerText.trim(),
        scrollHeight: news.scrollHeight, clientHeight: news.clientHeight,
        scrollWidth: news.scrollWidth, clientWidth: news.clientWidth,
        textOverflow: style.textOverflow, clamp: style.webkitLineClamp,
        top: r.top, bottom: r.bottom, left: r.left, right: r.right,
        reserved: reserved, innerWidth: innerWidth, innerHeight: innerHeight,
        buttons: buttons,
    };
}"""

SHOW_JS = """(html) => { document.querySelector("#announce").innerHTML = html; }"""


def whole(news: dict[str, Any]) -> list[str]:
    """What is wrong with the news line as measured: cut, empty, off the screen, over the
    page's own content, or a clock button outside it."""
    wrong = []
    said = news["text"][:60]
    if not news["text"]:
        wrong.append("the news line is empty")
    if news["scrollHeight"] > news["clientHeight"] or news["scrollWidth"] > news["clientWidth"]:
        wrong.append(f"cut: {news['scrollHeight']} > {news['clientHeight']}: {said}")
    if news["textOverflow"] == "ellipsis" or news["clamp"] not in ("none", "", None):
        wrong.append(f"cut by the style ({news['textOverflow']}, {news['clamp']}): {said}")
    if news["top"] < 0 or news["left"] < 0 or news["right"] > news["innerWidth"] + 0.5:
        wrong.append(f"off the screen at {news['top']},{news['left']}: {said}")
    if news["bottom"] > news["reserved"] + 1:
        wrong.append(f"over the page: ends at {news['bottom']}, room to {news['reserved']}: {said}")
    for top, bottom, right in news["buttons"]:
        if top < news["top"] - 0.5 or bottom > news["bottom"] + 0.5 or right > news["right"]:
            wrong.append(
                f"a clock button outside the line: {top}..{bottom} not in "
                f"{news['top']}..{news['bottom']}"
            )
    return wrong


def _table(base: str, clock: bool = False) -> list[kit.Player]:
    host = kit.create(base, NAMES[0])
    players = [host, *(kit.join(base, host.code, name) for name in NAMES[1:])]
    if clock:
        host.act("timer", phase="clues", mode="enforced", minutes=5)
        host.act("timer", phase="rebuild", mode="enforced", minutes=5)
    return players


def _page(open_player: OpenPlayer, seat: kit.Player, lang: str = "en") -> Player:
    player = open_player(seat.name, PHONE, token=seat.token, code=seat.code, locale=LOCALES[lang])
    player.goto(f"/r/{seat.code}")
    player.page.locator("#stage").wait_for()
    return player


def _wrong_then_agreed(players: list[kit.Player], spectator: kit.Player) -> None:
    """A first try all wrong, agreed by every guesser: the clover's last try begins."""
    guessers = [p for p in players if p.seat != spectator.seat]
    cards = [c["card"] for c in guessers[0].state()["resolution"]["pool"]]
    truth = {s["spot"]: s["card"] for s in kit.solution(players)}
    for spot in range(4):  # each spot given a card that is not its own
        wrong = next(c for c in cards if c != truth[spot])
        cards.remove(wrong)
        guessers[0].act("place", card=wrong, spot=spot)
    for guesser in guessers:
        guesser.act("agree")


def _news(player: Player) -> dict[str, Any]:
    return player.page.evaluate(NEWS_JS)  # type: ignore[no-any-return]


@pytest.mark.parametrize("lang", ["en", "fr", "zh"])
def test_the_last_try_is_read_whole_on_a_page_opened_then(
    server: kit.Server, open_player: OpenPlayer, lang: str
) -> None:
    """The moment the line was cut: the second try of a clover, a clock running and the
    host's pause button beside the sentence. Live, the agreement that began it; opened
    afresh, where the table stands; both whole, in each language."""
    players = _table(server.url, clock=True)
    host = players[0]
    kit.start_and_write_clues(players)
    spectator = kit.spectator_of(players)
    guesser = next(p for p in players if p.seat not in (spectator.seat, host.seat))
    live = _page(open_player, guesser, lang)
    guessers = [p for p in players if p.seat != spectator.seat]
    _wrong_then_agreed(players, spectator)
    live.page.locator("#announce [data-cue=checked]").wait_for()
    assert live.page.locator(".attempt").count() == 1
    assert whole(_news(live)) == []

    # Opened afresh by the other guesser, and by the host with the clock's pause button.
    for seat in (next(p for p in guessers if p is not guesser), host):
        page = _page(open_player, seat, lang)
        news = _news(page)
        if seat is not spectator:
            assert spectator.name in news["text"], news["text"]
        else:
            assert page.page.locator("#stage .clock-box button").count() == 1  # pause
        assert whole(news) == []
        # The same sentence the live stream sends a page that starts again.
        page.page.reload()
        page.page.locator("#stage").wait_for()
        assert _news(page)["text"] == news["text"]


def _every_sentence(view: dict[str, Any], me: int, lang: str) -> set[str]:
    """Every sentence the news line can say in this view, with this table's names: each
    kind of change, in each of its forms, and where the table stands."""
    others = [p["name"] for p in view["players"] if p["seat"] != me]
    who, other = others[0], others[-1]
    forms: list[dict[str, Any]] = [{}]
    for kind in (
        "join",
        "watch",
        "sit",
        "send_away",
        "watchers_chat",
        "leave",
        "drop",
        "refuse",
        "withdraw",
        "claims_by",
        "kick",
        "add_bot",
        "stand_in",
        "settings",
        "start",
        "clues",
        "done",
        "undone",
        "place",
        "remove",
        "rotate",
        "agree",
        "lock",
        "unagree",
        "next",
        "timer",
        "pause",
        "resume",
        "timeout",
        "again",
        "claim",
        "allow",
    ):
        for extra in (
            {},
            {"watcher": True},
            {"cleared": [me]},
            {"cleared": [view["players"][1]["seat"]]},
            {"quiet": True},
            {"moved": False},
            {"device": "phone"},
            {"host": True, "device": "tablet", "back": True},
            {"spectator": True},
            {"ran_out": "rebuild"},
            {"late": [who, other]},
            {"not_played": [who]},
        ):
            forms.append(
                {
                    "type": kind,
                    "seat": view["players"][1]["seat"],
                    "name": who,
                    "removed": other,
                    "claimed": other,
                    "stood_in": other,
                    "bot": other,
                    **extra,
                }
            )
    context = render.region_context(view, "")
    said = set()
    for happened in forms:
        html = render.region("announce", lang, {**context, "happened": happened or None})
        if html.strip():
            said.add(html.strip())
    return said


def _read_every_sentence(page: Player, state: dict[str, Any], me: int) -> None:
    said = _every_sentence(state, me, "fr")
    assert len(said) > 3
    wrong = []
    longest = (0.0, "")
    for html in sorted(said):
        page.page.evaluate(SHOW_JS, html)
        news = _news(page)
        wrong += whole(news)
        longest = max(longest, (news["bottom"] - news["top"], news["text"]))
    assert wrong == [], "\n".join(wrong)
    assert longest[1]


@pytest.mark.parametrize("clock", [False, True], ids=["no-clock", "clock"])
def test_the_longest_french_sentence_of_each_phase_is_whole(
    server: kit.Server, open_player: OpenPlayer, clock: bool
) -> None:
    """The host's page in French (the widest clock, with its pause button), in each
    phase: every sentence the line can say there, written into it, is read whole, and
    stays in the room the page keeps for it."""
    players = _table(server.url, clock=clock)
    host = players[0]
    page = _page(open_player, host, "fr")
    _read_every_sentence(page, host.state(), host.seat)

    host.act("start")
    page.page.locator(".write").wait_for()
    _read_every_sentence(page, host.state(), host.seat)

    for p in players:
        p.act("clues", clues=kit.clues_for(p.seat))
        p.act("done")
    page.page.locator(".resolve, .reveal").first.wait_for()
    _read_every_sentence(page, host.state(), host.seat)

    # the last try: its own sentences, longer
    _wrong_then_agreed(players, kit.spectator_of(players))
    kit.room_when(
        server.url, host.code, lambda s: s["resolution"]["attempt"] == 2, what="the last try"
    )
    page.page.reload()
    page.page.locator("#stage").wait_for()
    _read_every_sentence(page, host.state(), host.seat)


def _play_out(players: list[kit.Player]) -> None:
    """Every clover rebuilt right at its first try, checked, and moved on from."""
    while True:
        state = kit.public(players[0].base, players[0].code)
        if state["phase"] == "finished":
            return
        spectator = kit.spectator_of(players)
        guessers = [p for p in players if p.seat != spectator.seat]
        for slot in kit.solution(players):
            guessers[0].act(
                "place", card=slot["card"], spot=slot["spot"], rotation=slot["rotation"]
            )
        for guesser in guessers:
            guesser.act("agree")
        guessers[0].act("next")


def test_a_page_opened_in_each_phase_says_where_the_table_stands(
    server: kit.Server, open_player: OpenPlayer
) -> None:
    """A host alone in the lobby, then each phase of a game, a page opened each time:
    the news line is never blank, and says what the table does now."""
    host = kit.create(server.url, NAMES[0])
    alone = _page(open_player, host)
    assert "Invite 2 more players" in _news(alone)["text"]
    alone.context.close()
    players = [host, *(kit.join(server.url, host.code, name) for name in NAMES[1:])]
    said = {}

    def opened(seat: kit.Player, phase: str) -> str:
        page = _page(open_player, seat)
        news = _news(page)
        page.context.close()
        assert news["text"], f"a blank news line in {phase}"
        said[phase] = news["text"]
        return str(news["text"])

    assert opened(host, "lobby") == "Everyone here? Start the game when you are ready."
    assert opened(players[1], "lobby, not the host") == f"Waiting for {NAMES[0]} to start the game."
    host.act("start")
    assert opened(host, "clues") == "Write a clue on each leaf of your clover, then press Done."
    for p in players:
        p.act("clues", clues=kit.clues_for(p.seat))
    host.act("done")
    assert opened(host, "clues, done") == f"Waiting for {NAMES[1]}, {NAMES[2]} to finish writing."
    for p in players[1:]:
        p.act("done")
    spectator = kit.spectator_of(players)
    guesser = next(p for p in players if p.seat != spectator.seat)
    assert opened(guesser, "resolution") == (
        f"Rebuild {spectator.name}'s clover: place the cards, then Agree."
    )
    assert opened(spectator, "resolution, spectator") == (
        "The table rebuilds your clover: watch in silence."
    )
    _play_out(players)
    total = kit.public(server.url, host.code)["total"]
    assert opened(host, "finished").startswith(f"The game is over: {total} of ")


@dataclass
class Held:
    """A card laid on the first spot while the phone was offline, and what the page sent."""

    card: str
    moment: str | None
    """The stage's step of the game when the card was tapped."""
    sent: list[str] = field(default_factory=list)
    """The bodies of every post to ``/act`` since, in order."""


def _tap_offline(
    server: kit.Server, open_player: OpenPlayer, also_allowed: str = ""
) -> tuple[list[kit.Player], kit.Player, Player, Held]:
    """A guesser's page at a new table's first clover lays a card while offline, and
    shows the offline warning; the phone is still offline."""
    players = _table(server.url)
    kit.start_and_write_clues(players)
    spectator = kit.spectator_of(players)
    seat = next(p for p in players if p.seat != spectator.seat)
    player = _page(open_player, seat)
    if also_allowed:
        player.allow(also_allowed)
    page = player.page
    held = Held(
        seat.state()["resolution"]["pool"][0]["card"],
        page.locator("#stage").get_attribute("data-moment"),
    )
    page.on(
        "request", lambda r: held.sent.append(r.post_data or "") if r.url.endswith("/act") else None
    )
    player.go_offline()
    page.locator(f'.pool .card[data-card="{held.card}"]').click()
    page.locator('.place[data-spot="0"]').click()
    page.locator("#flash .flash[data-offline]").wait_for()
    return players, seat, player, held


def test_the_offline_warning_leaves_once_the_move_is_sent_again(
    server: kit.Server, open_player: OpenPlayer
) -> None:
    """A card laid while the phone is offline is not sent, and the page says so; back
    online, the move goes, and the warning with it."""
    _, seat, player, held = _tap_offline(server, open_player)
    page, card, sent = player.page, held.card, held.sent
    player.context.set_offline(False)
    page.locator("#flash .flash").wait_for(state="detached")
    page.locator(f'.board .spot-0 .card[data-card="{card}"]').wait_for()
    assert seat.state()["resolution"]["board"][0]["card"] == card
    # Sent once, with the step of the game it was tapped at: the table refuses it should
    # it have gone on to another clover meanwhile (tests/web/test_held_moves.py).
    placed = [body for body in sent if "type=place" in body]
    assert len(placed) == 1, sent
    assert parse_qs(placed[0])["moment"] == [held.moment]


def test_a_held_move_lost_again_on_its_way_back_keeps_the_step_it_was_tapped_at(
    server: kit.Server, open_player: OpenPlayer
) -> None:
    """Back online, the held move is lost on its way as the phone drops again: held once
    more, it still carries the step it was first tapped at, not the one the page has come
    to meanwhile (here drawn by hand), and goes once the phone is back for good."""
    _, _, player, held = _tap_offline(server, open_player, "htmx:sendError|htmx:afterRequest")
    page, card, sent = player.page, held.card, held.sent
    page.evaluate("document.getElementById('stage').dataset.moment = 'resolution-9-9'")

    def dropped(route: Any) -> None:
        player.context.set_offline(True)
        route.abort("internetdisconnected")

    page.route("**/act", dropped)
    player.context.set_offline(False)
    page.wait_for_function("() => navigator.onLine === false")
    page.locator("#flash .flash[data-offline]").wait_for()
    page.unroute("**/act")
    player.context.set_offline(False)
    page.locator(f'.board .spot-0 .card[data-card="{card}"]').wait_for()
    moments = [parse_qs(body).get("moment") for body in sent if "type=place" in body]
    assert moments == [[held.moment], [held.moment]], sent


def test_a_move_held_while_the_table_moved_on_says_so_once_the_new_clover_is_shown(
    server: kit.Server, open_player: OpenPlayer
) -> None:
    """While the phone is away, the others rebuild the clover and go on to the next one.
    Back online, the page's stream brings the new clover and the held move is refused:
    the refusal stays to be read, the new clover's arrival does not put it away."""
    players, seat, player, held = _tap_offline(server, open_player, "status of 4")
    page = player.page
    spectator = kit.spectator_of(players)
    guessers = [p for p in players if p.seat != spectator.seat]
    for slot in kit.solution(players):
        guessers[0].act("place", card=slot["card"], spot=slot["spot"], rotation=slot["rotation"])
    for guesser in guessers:
        guesser.act("agree")
    guessers[0].act("next")
    player.context.set_offline(False)
    page.wait_for_function(
        "(was) => document.getElementById('stage').dataset.moment !== was", arg=held.moment
    )
    page.locator("#flash .flash", has_text="the table moved on").wait_for()
    assert seat.state()["resolution"]["board"][0]["card"] is None


def test_an_offline_move_refused_on_its_return_says_why(
    server: kit.Server, open_player: OpenPlayer
) -> None:
    """Meanwhile someone else filled the spot: the move held goes once the phone is back,
    is refused, and the refusal replaces the offline warning."""
    players = _table(server.url)
    kit.start_and_write_clues(players)
    spectator = kit.spectator_of(players)
    seat, other = [p for p in players if p.seat != spectator.seat]
    player = _page(open_player, seat)
    player.allow(r"status of 4")
    page = player.page
    pool = [c["card"] for c in seat.state()["resolution"]["pool"]]
    player.go_offline()
    page.locator(f'.pool .card[data-card="{pool[0]}"]').click()
    page.locator('.place[data-spot="0"]').click()
    offline = page.locator("#flash .flash[data-offline]")
    offline.wait_for()
    warning = offline.inner_text()
    other.act("place", card=pool[1], spot=0)
    player.context.set_offline(False)
    page.locator("#flash .flash:not([data-offline])").wait_for()
    assert page.locator("#flash .flash").inner_text() != warning
    assert seat.state()["resolution"]["board"][0]["card"] == pool[1]


def test_play_again_opens_the_lobby_at_its_top(server: kit.Server, open_player: OpenPlayer) -> None:
    players = _table(server.url)
    kit.start_and_write_clues(players)
    _play_out(players)
    player = _page(open_player, players[0])
    page = player.page
    again = page.get_by_role("button", name="Play again", exact=True)
    # the recap read down to its foot, then Play again
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_function("() => window.scrollY > 0")
    again.click()
    page.locator("#stage.phase-lobby").wait_for()
    page.wait_for_function("() => window.scrollY === 0")
    # "At the table" in sight, under the news line, not under the header
    heading = page.locator("#players h2").first.bounding_box()
    news = _news(player)
    assert heading is not None and heading["y"] >= news["bottom"] - 0.5, (heading, news)


def test_done_on_the_clues_leaves_the_page_at_what_comes_next(
    server: kit.Server, open_player: OpenPlayer
) -> None:
    """Done is pressed at the foot of the clues: "Your clues are in" (wait, or edit
    again) comes into view under the news line."""
    players = _table(server.url)
    players[0].act("start")
    seat = players[1]
    player = _page(open_player, seat)
    page = player.page
    for leaf in range(4):
        page.fill(f"#clue-{leaf}", f"Qz1{leaf}")
    done = page.get_by_role("button", name="Done", exact=True)
    done.scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    done.click()
    page.locator("#clues-in").wait_for()
    page.wait_for_function(
        """() => {
            const h = document.querySelector("#clues-in").getBoundingClientRect();
            const news = document.querySelector("#announce").getBoundingClientRect();
            return h.top >= news.bottom - 0.5 && h.bottom <= innerHeight;
        }"""
    )
