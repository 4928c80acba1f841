"""Whole games decided by the service: the scores of first and second tries, a game's
total and its place among the room's legends, another game at the same table.

Driven through ``RoomService`` on the store in memory (``tests/web/test_games.py``
plays a whole game over the JSON API, and every refusal of a move there).
"""

from __future__ import annotations

from typing import Any

from app.rules import actions as act
from tests.service.support import Table, memory_service, run_async, table, write_clues


async def perfect_by_agreement(t: Table) -> dict[str, Any]:
    """A guesser lays the clover right; every guesser agrees: six points at the first try."""
    service = t.service
    room = await service.load(t.code)
    clover, spectator = room.current_clover(), room.spectator()
    assert clover is not None and spectator is not None
    guessers = [seat for seat in range(len(t.seated)) if seat != spectator]
    for spot, card in enumerate(clover.cards):
        place = act.Place(card.id, spot, clover.rotations[spot])
        await service.act(t.code, t.seat(guessers[0]), place)
    view: dict[str, Any] = {}
    for seat in guessers:
        view = dict(await (await service.act(t.code, t.seat(seat), act.Agree())).view())
    res = view["resolution"]
    assert res["checked"] and res["score"] == 6 and res["attempt"] == 1
    return view


async def second_try(t: Table, first_right: int, second_right: int) -> None:
    """First try: ``first_right`` right, the rest on their spot but turned; then the
    second: ``second_right`` right in all, the rest turned the other way."""
    service = t.service
    room = await service.load(t.code)
    clover, holder = room.current_clover(), room.lock_holder()
    assert clover is not None and holder is not None
    seat = t.seat(holder)
    for spot, card in enumerate(clover.cards):
        turns = 0 if spot < first_right else 1
        place = act.Place(card.id, spot, (clover.rotations[spot] + turns) % 4)
        await service.act(t.code, seat, place)
    res = (await (await service.act(t.code, seat, act.Lock())).view())["resolution"]
    assert res["attempt"] == 2 and not res["checked"]
    assert [b["locked"] for b in res["board"]] == [i < first_right for i in range(4)]
    assert res["solution"] is None and res["decoys"] is None  # still hidden from guessers
    # Right spot, wrong rotation was wrong, and the table is told it was tried.
    assert {(r["spot"], r["rotation"]) for r in res["rejected"]} == {
        (spot, (clover.rotations[spot] + 1) % 4) for spot in range(first_right, 4)
    }
    for spot in range(first_right, 4):
        turns = 0 if spot < second_right else 2
        place = act.Place(clover.cards[spot].id, spot, (clover.rotations[spot] + turns) % 4)
        await service.act(t.code, seat, place)
    res = (await (await service.act(t.code, seat, act.Lock())).view())["resolution"]
    assert res["checked"] and res["score"] == second_right


def test_a_four_player_game_scoring_6_3_6_2() -> None:
    async def scenario() -> None:
        service = memory_service()
        t = await table(service, "Ada", "Bea", "Cy", "Dot")
        await write_clues(t)
        for plan in [None, (1, 3), None, (0, 2)]:
            if plan is None:
                await perfect_by_agreement(t)
            else:
                await second_try(t, *plan)
            view = await (await service.act(t.code, t.seat(0), act.Next())).view()
        assert view["phase"] == "finished"
        assert [r["score"] for r in view["results"]] == [6, 3, 6, 2]
        assert (view["total"], view["max"]) == (17, 24)
        legends = await service.legends_of(room=t.code)
        assert [(g["score"], g["max"], g["player_count"], g["decoys"]) for g in legends] == [
            (17, 24, 4, 1)
        ]

    run_async(scenario())


def test_a_six_player_game_with_four_decoys_and_another_at_the_same_table() -> None:
    async def scenario() -> None:
        service = memory_service()
        names = ("Ada", "Bea", "Cy", "Dot", "Eve", "Flo")
        t = await table(service, *names, decoys=4)
        await write_clues(t)
        assert len((await service.view(t.code, 0))["resolution"]["pool"]) == 8
        for turn in range(6):
            # Guessers meanwhile see neither the solution nor the decoys.
            spectator = (await service.load(t.code)).spectator()
            for seat in range(6):
                if seat != spectator:
                    res = (await service.view(t.code, seat))["resolution"]
                    assert res["solution"] is None and res["decoys"] is None
            if turn % 2:
                await second_try(t, 2, 4)  # all right on the second try: no bonus
            else:
                await perfect_by_agreement(t)
            view = await (await service.act(t.code, t.seat(turn), act.Next())).view()
        assert view["phase"] == "finished"
        assert [r["score"] for r in view["results"]] == [6, 4, 6, 4, 6, 4]
        assert (view["total"], view["max"]) == (30, 36)
        # Play again: the same seats, back in the lobby, the room remembers its best.
        view = await (await service.act(t.code, t.seat(3), act.Again())).view()
        assert view["phase"] == "lobby" and [p["name"] for p in view["players"]] == list(names)
        assert view["best"]["score"] == 30
        view = await (await service.act(t.code, t.seat(0), act.Start())).view()
        assert view["phase"] == "clues" and view["clover"] is not None

    run_async(scenario())


def test_the_host_leaves_and_hosting_passes_to_the_next_seat() -> None:
    async def scenario() -> None:
        service = memory_service()
        t = await table(service, "Ada", "Bea", "Cy", "Dot", "Eve", "Flo")
        view = await (await service.act(t.code, t.seat(0), act.Leave())).view()
        assert view["players"][0]["name"] == "Bea" and view["players"][0]["host"]
        assert (await service.view(t.code, 1))["you"] == {"seat": 0, "host": True}
        assert await service.seat_for(t.code, t.seated[0].token) is None
        assert (await service.view(t.code, 5))["you"]["seat"] == 4

    run_async(scenario())
