"""Nothing stalls the table: the host takes out a player who went away, anyone may
leave a game, and the game ends with the clovers actually played. Over HTTP."""

from __future__ import annotations

import json
from typing import Any

from ..kit import (
    QUICK,
    Player,
    Stream,
    assert_error,
    clues_for,
    gone_quiet,
    http,
    present,
    solution,
    table,
    table_of,
)


def _finish(players: list[Player]) -> dict[str, Any]:
    """Every remaining clover rebuilt and locked in by its lock holder."""
    state = players[0].state()
    while state["phase"] == "resolution":
        res = state["resolution"]
        holder = next(p for p in players if p.seat == res["lock_holder"])
        if not res["checked"]:
            for s in solution(players):
                holder.act("place", card=s["card"], spot=s["spot"], rotation=s["rotation"])
            holder.act("lock")
        state = holder.act("next")
    return state


def test_the_host_drops_an_absent_writer_and_the_game_ends_with_one_clover_fewer(
    make_server,  # type: ignore[no-untyped-def]
) -> None:
    api = make_server(**QUICK).url
    players = table(api, 4)
    with present(players[:3]):
        _drop_a_writer(api, players)


def _drop_a_writer(api: str, players: list[Player]) -> None:
    ada, dot = players[0], players[3]
    ada.act("start")
    dot.act("clues", clues=[*clues_for(3)[:2], None, None])  # half written, then gone
    for p in players[:3]:
        p.act("clues", clues=clues_for(p.seat))
        p.act("done")
    assert ada.state()["phase"] == "clues"  # the table waits on Dot
    gone_quiet(dot)
    assert ada.state()["can"]["drop"] == [3]
    state = ada.act("drop", seat=3)
    assert state["phase"] == "resolution" and state["players"][3]["out"]
    assert state["max"] == 18
    final = _finish(players)
    assert final["phase"] == "finished"
    assert [r["spectator"] for r in final["results"]] != [] and 3 not in [
        r["spectator"] for r in final["results"]
    ]
    assert (final["total"], final["max"]) == (18, 18)
    legends = http.get(f"{api}/api/legends", params={"room": ada.code}, headers=ada.headers)
    (legend,) = legends.json()["legends"]
    assert (legend["max"], legend["player_count"]) == (18, 3)
    assert legend["players"] == ["Ada", "Bea", "Cy"]
    # Dot, back, reads that they are out, may watch and chat, and do nothing else.
    back = dot.state()
    assert back["players"][3]["out"] and back["clover"] is None
    assert_error(dot.post("clues", clues=clues_for(3)), 403, code="out_of_game")
    dot.act("say", text="sorry, my battery died")
    # The next game seats only those who stayed; Dot watches it, with the same token.
    lobby = ada.act("again")
    assert [p["name"] for p in lobby["players"]] == ["Ada", "Bea", "Cy"]
    assert [w["name"] for w in lobby["watchers"]] == ["Dot"]
    assert dot.state()["you"] == {"seat": None, "host": False, "watcher": True}
    assert dot.act("say", text="hello?")["chat"][-1]["watcher"] is True


def test_a_player_leaves_during_someone_elses_clover_and_the_game_still_finishes(
    api: str,
) -> None:
    players = table(api, 4)
    players[0].act("start")
    for p in players:
        p.act("clues", clues=clues_for(p.seat))
        p.act("done")
    spectator = players[0].state()["resolution"]["spectator"]
    leaver = next(p for p in players if p.seat not in (spectator, 0))
    state = leaver.act("leave")
    assert state["players"][leaver.seat]["out"]
    assert state["resolution"]["lock_holder"] != leaver.seat
    final = _finish(players)
    assert final["phase"] == "finished"
    assert len(final["results"]) == 4  # the leaver's clues were written: their clover came
    assert final["max"] == 24


def test_refused_drops_and_leaves_change_nothing(make_server) -> None:  # type: ignore[no-untyped-def]
    api = make_server(**QUICK).url
    players = table(api, 3)
    with present(players):
        _refusals(api, players)


def _refusals(api: str, players: list[Player]) -> None:
    ada, bea, cy = players
    assert_error(ada.post("drop", seat=1), 409, code="wrong_phase")  # the lobby has kick
    ada.act("start")
    before = table_of(api, ada.code)
    assert_error(bea.post("drop", seat=2), 403, code="not_host")
    assert_error(ada.post("drop", seat=1), 409, code="player_present")
    assert_error(ada.post("drop", seat=0), 409, code="player_present")
    assert_error(ada.post("drop", seat=7), 422)
    assert_error(ada.post("drop", seat="x"), 422)
    assert table_of(api, ada.code) == before
    bea.act("leave")
    # Two are left: nobody more may go out of this game.
    assert_error(cy.post("leave"), 409, code="too_few_left")
    assert_error(bea.post("leave"), 409, code="already_out")
    assert_error(bea.post("done"), 403, code="out_of_game")
    after = table_of(api, ada.code)
    assert_error(cy.post("leave"), 409, code="too_few_left")
    assert table_of(api, ada.code) == after


def test_no_view_event_or_history_carries_a_dropped_players_clover(
    make_server,  # type: ignore[no-untyped-def]
) -> None:
    api = make_server(**QUICK).url
    players = table(api, 4)
    with present(players[:3]):
        _a_dropped_clover_nowhere(api, players)


def _a_dropped_clover_nowhere(api: str, players: list[Player]) -> None:
    ada, dot = players[0], players[3]
    ada.act("start")
    secret = ["Zwhisper", "Zmurmur", None, None]
    dot.act("clues", clues=secret)
    assert "Zwhisper" in json.dumps(dot.state())  # the marker is the right one
    gone_quiet(dot)
    stream = Stream(f"{api}/api/rooms/{ada.code}/events", dict(players[1].headers))
    try:
        stream.next()
        ada.act("drop", seat=3)
        for p in players[:3]:
            p.act("clues", clues=clues_for(p.seat))
            p.act("done")
        _finish(players)
        seen = [stream.next() for _ in range(3)]
    finally:
        stream.close()
    texts = [json.dumps(p.state()) for p in players] + [json.dumps(e.json) for e in seen]
    texts += [http.get(f"{api}/api/rooms/{ada.code}").text]
    texts += [
        http.get(f"{api}/api/rooms/{ada.code}/history", headers=p.headers).text for p in players
    ]
    page = http.get(f"{api}/r/{ada.code}", cookies={f"soclover_{ada.code}": ada.token})
    texts.append(page.text)
    for text in texts:
        assert "Zwhisper" not in text and "Zmurmur" not in text
    history = http.get(f"{api}/api/rooms/{ada.code}/history", headers=ada.headers).json()
    assert len(history["clovers"]) == 3
    assert 3 not in [c["spectator"] for c in history["clovers"]]
