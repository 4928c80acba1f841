"""Going out of a game: a player leaves it, or the host takes out one who is away.

The table must never wait on someone who is not there: a clover still being
written is dropped, one already written still comes, and the game ends with
the clovers actually played.
"""

import pytest

from app.rules import actions as act
from app.rules import errors
from app.rules.engine import apply, play
from app.rules.views import view

from .support import CLUES, DECK, play_clover, resolving, started


def away(room, *seats):
    """Everyone present but ``seats``."""
    here = frozenset(range(len(room.players))) - set(seats)
    return apply(room, None, act.Presence(here))


def write(room, *seats, done=True):
    for seat in seats:
        room = apply(room, seat, act.Clues(CLUES))
        if done:
            room = apply(room, seat, act.Done())
    return room


def finish(room):
    """Every remaining clover found at the first try."""
    while room.phase == "resolution":
        room = play_clover(room, 4)
        played = play(room, room.lock_holder(), act.Next())
        room = played.room
    return room


def test_the_host_takes_an_absent_writer_out_and_the_game_goes_on_without_their_clover():
    room = write(away(started(4), 2), 0, 1, 3)
    assert room.phase == "clues"  # everyone else is done: the table waits on seat 2
    room = apply(room, 0, act.Drop(2))
    assert room.players[2].out and room.clovers[2].dropped
    assert room.phase == "resolution"
    assert 2 not in room.turns() and len(room.turns()) == 3
    seen = [room.spectator()]
    room = finish(room)
    assert room.phase == "finished"
    assert sorted(r.spectator for r in room.results) == [0, 1, 3]
    assert view(room, 0)["max"] == 18 and room.total() == 18
    assert seen[0] != 2


def test_a_dropped_clover_leaves_every_view():
    room = apply(write(away(started(3), 1), 0), 0, act.Drop(1))
    for seat in (0, 1, 2, None):
        state = view(room, seat)
        assert state["clover"] is None or seat == 0 or seat == 2
        assert [p["out"] for p in state["players"]] == [False, True, False]
    assert view(room, 1)["clover"] is None  # their own clover is gone for them too
    assert view(room, 1)["can"] == {
        **dict.fromkeys(view(room, 1)["can"], False),
        "kick": [],
        "drop": [],
        "stand_in": [],
        "allow": [],
        "refuse": [],
        "send_away": [],
        "say": True,
    }


def test_only_the_host_drops_only_an_absent_player_during_a_game():
    room = away(started(4), 3)
    errors_by_case = [
        (1, act.Drop(3), errors.NotHost),
        (0, act.Drop(1), errors.PlayerPresent),
        (0, act.Drop(0), errors.PlayerPresent),
        (0, act.Drop(9), errors.BadSeat),
    ]
    for seat, action, error in errors_by_case:
        with pytest.raises(error):
            apply(room, seat, action)
    room = apply(room, 0, act.Drop(3))
    with pytest.raises(errors.OutOfGame):
        apply(room, 3, act.Clues(CLUES))
    with pytest.raises(errors.AlreadyOut):
        apply(room, 3, act.Leave())


def test_the_stand_in_drops_an_absent_host_and_takes_the_title():
    room = away(started(3), 0)
    assert room.acting_host() == 1
    room = apply(room, 1, act.Drop(0))
    assert room.players[0].out and room.host == 1


def test_a_game_goes_on_with_two_players_and_no_fewer():
    room = apply(started(3), 2, act.Leave())
    assert room.players[2].out
    with pytest.raises(errors.TooFewLeft):
        apply(room, 1, act.Leave())
    room = away(room, 1)
    with pytest.raises(errors.TooFewLeft):
        apply(room, 0, act.Drop(1))


def test_in_the_resolution_a_written_clover_still_comes_and_nobody_waits_for_its_owner():
    room = resolving(4)
    spectator = room.spectator()
    later = room.turns()[2]
    # The owner of a later clover leaves: their clover still comes.
    room = apply(room, later, act.Leave())
    assert later in room.turns()
    # Everyone present agrees but one guesser, who then leaves: the clover is checked.
    guessers = [s for s in range(4) if room.is_guesser(s)]
    holder = room.lock_holder()
    clover = room.current_clover()
    for spot in range(4):
        room = apply(room, holder, act.Place(clover.cards[spot].id, spot, clover.rotations[spot]))
    stay, go = guessers[0], guessers[-1]
    room = apply(room, stay, act.Agree())
    if go != stay:
        room = apply(room, go, act.Leave())
        assert room.resolution.checked
    room = finish(apply(room, room.lock_holder(), act.Next()) if room.resolution.checked else room)
    assert room.phase == "finished"
    assert len(room.results) == 4 and spectator in [r.spectator for r in room.results]


def test_the_table_plays_the_clover_of_a_spectator_who_went_out():
    room = resolving(3)
    spectator = room.spectator()
    room = apply(room, spectator, act.Leave())
    assert room.spectator() == spectator and room.players[spectator].out
    room = play_clover(room, 4)
    assert room.resolution.checked and room.results[-1].spectator == spectator


def test_the_next_game_seats_only_who_stayed():
    room = finish(apply(write(away(started(4), 1), 0, 2, 3), 0, act.Drop(1)))
    room = apply(room, 0, act.Again())
    assert [p.name for p in room.players] == ["Ada", "Cy", "Dot"]
    assert not any(p.out for p in room.players)
    room = apply(away(room), 0, act.Start(3), deck=DECK)
    assert len(room.clovers) == 3
