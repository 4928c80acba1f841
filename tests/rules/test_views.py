"""The per-seat view: what each seat may learn, and what nobody may before the check."""

import json
from dataclasses import replace

import pytest

from app.rules import actions as act
from app.rules.engine import apply
from app.rules.views import SEATED, WATCHER, audience, common, own, view

from .support import guessers, lay, lobby, resolving, started, truth

SEATED_BOTS = pytest.mark.parametrize("bots", [0, 2], ids=["people", "with-bots"])
"""Hidden things stay hidden with bots at the table as with people only."""


ONLOOKERS = (None, WATCHER)
"""Who reads a room without a seat: someone with its link, and any of its watchers."""


def watched(room):
    """``room`` with two watchers, one here and chatting: hidden things stay hidden."""
    room = apply(room, None, act.Watch("Gus"))
    room = apply(room, None, act.Watch("Hal"))
    gus = room.watchers[0].pid
    seats = frozenset(s for s, p in enumerate(room.players) if p.present)
    room = apply(room, None, act.Presence(seats, frozenset({gus})))
    return apply(room, None, act.Say("who leads?", "t"), watcher=gus)


def dump(room, seat):
    return json.dumps(view(room, seat))


def words_of(clover):
    """Each keyword of a clover as it would appear in JSON, quotes included."""
    return {f'"{w}"' for card in clover.all_cards() for w in card.words}


def test_lobby_view_has_players_and_no_game():
    room = lobby(3)
    v = view(room, 1)
    assert v["you"] == {"seat": 1, "host": False}
    assert [p["name"] for p in v["players"]] == ["Ada", "Bea", "Cy"]
    assert v["clover"] is None and v["resolution"] is None
    assert v["max"] == 18 and v["total"] == 0


@SEATED_BOTS
def test_in_the_clue_phase_each_player_sees_only_their_own_clover(bots):
    room = watched(started(4, bots=bots))
    for seat in range(4):
        v = view(room, seat)
        cards = v["clover"]["cards"]
        assert [tuple(c["words"]) for c in cards] == [c.words for c in room.clovers[seat].cards]
        text = json.dumps(v)
        for other in range(4):
            if other != seat:
                assert not any(w in text for w in words_of(room.clovers[other]))
        # the decoys of one's own clover are not dealt yet as far as anyone knows
        assert not any(f'"{w}"' in text for c in room.clovers[seat].decoys for w in c.words)


@SEATED_BOTS
def test_nobody_without_a_seat_sees_any_clover_in_the_clue_phase(bots):
    room = watched(started(3, bots=bots))
    for onlooker in ONLOOKERS:
        text = dump(room, onlooker)
        assert view(room, onlooker)["clover"] is None
        for clover in room.clovers:
            assert not any(w in text for w in words_of(clover))


def test_the_owner_sees_pairs_and_clues_on_each_leaf():
    room = apply(started(3), 1, act.Clues(("Alpha", None, None, "Delta")))
    leaves = view(room, 1)["clover"]["leaves"]
    assert [leaf["clue"] for leaf in leaves] == ["Alpha", None, None, "Delta"]
    assert all(len(leaf["pair"]) == 2 for leaf in leaves)


@SEATED_BOTS
def test_guessers_see_clues_pool_and_board_but_not_the_solution(bots):
    room = watched(resolving(4, bots=bots))
    spectator = room.spectator()
    for seat in [*guessers(room), *ONLOOKERS]:
        res = view(room, seat)["resolution"]
        assert res["solution"] is None and res["decoys"] is None
        assert res["clues"] == ["Alpha", "Bravo", "Charlie", "Delta"]
        assert len(res["pool"]) == 5
    mine = view(room, spectator)["resolution"]
    assert len(mine["solution"]) == 4 and len(mine["decoys"]) == 1


@SEATED_BOTS
def test_a_guessers_view_does_not_depend_on_the_hidden_truth(bots):
    """Swap which card is the decoy and how the true cards lie: guessers see no difference."""
    room = watched(resolving(3, bots=bots))
    spectator = room.spectator()
    clover = room.clovers[spectator]
    shuffled = replace(
        clover,
        cards=(clover.decoys[0], clover.cards[2], clover.cards[0], clover.cards[1]),
        decoys=(clover.cards[3],),
        rotations=tuple((r + 1) % 4 for r in clover.rotations),
    )
    other = replace(
        room, clovers=tuple(shuffled if c.owner == spectator else c for c in room.clovers)
    )
    seat = guessers(room)[0]
    other = lay(other, seat, [(s, cid, 0) for s, cid in enumerate(clover.pool_order[:4])])
    room = lay(room, seat, [(s, cid, 0) for s, cid in enumerate(clover.pool_order[:4])])
    for s in [*guessers(room), *ONLOOKERS]:
        assert dump(room, s) == dump(other, s)
    assert dump(room, spectator) != dump(other, spectator)


@SEATED_BOTS
def test_other_clovers_stay_hidden_during_resolution(bots):
    room = watched(resolving(4, bots=bots))
    spectator = room.spectator()
    for seat in range(4):
        text = dump(room, seat)
        for clover in room.clovers:
            if clover.owner != spectator:
                assert not any(w in text for w in words_of(clover))


def test_after_the_check_the_solution_and_decoys_are_public():
    room = watched(resolving(3))
    seat = room.lock_holder()
    room = apply(lay(room, seat, truth(room)), seat, act.Lock())
    for s in [*range(3), *ONLOOKERS]:
        res = view(room, s)["resolution"]
        assert [(x["spot"], x["card"], x["rotation"]) for x in res["solution"]] == truth(room)
        assert res["decoys"] == [c.id for c in room.current_clover().decoys]
        assert res["score"] == 6
    assert view(room, 0)["results"] == [{"spectator": room.spectator(), "attempts": 1, "score": 6}]


def test_rejected_placements_and_locks_are_shown_after_a_first_try():
    room = resolving(3)
    seat = room.lock_holder()
    placements = truth(room)
    spot, card, rotation = placements[1]
    placements[1] = (spot, card, (rotation + 1) % 4)
    room = apply(lay(room, seat, placements), seat, act.Lock())
    res = view(room, seat)["resolution"]
    assert res["attempt"] == 2
    assert [b["locked"] for b in res["board"]] == [True, False, True, True]
    assert res["rejected"] == [{"spot": 1, "card": card, "rotation": (rotation + 1) % 4}]
    assert card in [p["card"] for p in res["pool"]]


def test_warnings_reach_only_their_author():
    room = apply(lobby(3), 0, act.Start(1), deck=[("Fire", "Fire", "Fire", "Fire")] * 20)
    room = apply(room, 0, act.Clues(("Firefighter", None, None, None)))
    assert [w["leaf"] for w in view(room, 0)["warnings"]] == [0]
    assert "Fire" in view(room, 0)["warnings"][0]["message"]
    assert view(room, 1)["warnings"] == []


def test_seats_that_know_the_same_share_one_common_part():
    """A change is told to the guessers at the cost of one view: they read one common
    part, and only who they are and what they may do is their own."""
    writing = started(4)
    assert [audience(writing, s) for s in range(4)] == [0, 1, 2, 3]
    room = resolving(5)
    spectator = room.spectator()
    assert audience(room, spectator) == spectator
    assert {audience(room, s) for s in guessers(room)} == {SEATED}
    assert audience(room, WATCHER) is None and audience(room, None) is None
    assert audience(room, 9) is None  # no such seat: an onlooker
    one, other = guessers(room)[:2]
    mine, theirs = view(room, one), view(room, other)
    assert {k for k in mine if mine[k] != theirs[k]} <= {"you", "can"}
    assert mine == own(room, one) | common(room, SEATED)
    seat = room.lock_holder()
    checked = apply(lay(room, seat, truth(room)), seat, act.Lock())
    # Once checked, the Spectator knows nothing the table does not: one part for all.
    assert {audience(checked, s) for s in range(5)} == {SEATED}


def test_bots_are_offered_only_in_a_room_of_a_language_the_servers_bots_play():
    """``can`` says where bots may come: the host's ``add_bot`` and ``stand_in`` hold
    only where the bots play the room's language, and never where there are none."""
    room = lobby(3)
    assert own(room, 0, frozenset({"en"}))["can"]["add_bot"]
    assert not own(room, 0)["can"]["add_bot"]  # no bots on this server
    french = apply(room, 0, act.Language("fr"))
    assert not own(french, 0, frozenset({"en"}))["can"]["add_bot"]
    assert own(french, 0, frozenset({"en", "fr"}))["can"]["add_bot"]
    away = apply(started(3, present=False), None, act.Presence(frozenset({0})))
    assert own(away, 0, frozenset({"en"}))["can"]["stand_in"] == [1, 2]
    assert own(away, 0)["can"]["stand_in"] == []
    assert view(away, 0, bot_languages=("en",))["can"]["stand_in"] == [1, 2]
