"""Checking and scoring, with every example of the rules (docs/rules.md)."""

import pytest

from app.rules import actions as act
from app.rules.engine import apply
from app.rules.scoring import max_score, points

from .support import lay, play_clover, resolving, truth, wrong_rotation


@pytest.mark.parametrize(
    ("attempt", "right", "score"),
    [(1, 4, 6), (2, 4, 4), (2, 3, 3), (2, 1, 1), (2, 0, 0)],
)
def test_points(attempt, right, score):
    assert points(attempt, right) == score


@pytest.mark.parametrize(("players", "best"), [(3, 18), (4, 24), (6, 36)])
def test_the_best_a_table_can_score_is_six_per_player(players, best):
    assert max_score(players) == best


def test_four_players_scoring_6_3_6_2_give_17_of_24():
    room = resolving(4)
    for first, second in [(4, None), (1, 3), (4, None), (0, 2)]:
        room = play_clover(room, first, second)
        room = apply(room, room.spectator(), act.Next())
    assert room.phase == "finished"
    assert [r.score for r in room.results] == [6, 3, 6, 2]
    assert [r.attempts for r in room.results] == [1, 2, 1, 2]
    assert (room.total(), max_score(4)) == (17, 24)


def test_every_player_is_spectator_once_going_left():
    room = resolving(5, seed=3)
    seen = []
    for _ in range(5):
        seen.append(room.spectator())
        room = play_clover(room, 4)
        room = apply(room, 0 if room.spectator() != 0 else 1, act.Next())
    assert seen == [(seen[0] + i) % 5 for i in range(5)]
    assert room.phase == "finished"


def test_perfect_first_try_scores_six_and_ends_the_clover():
    room = play_clover(resolving(3), 4)
    assert room.resolution.checked
    assert room.results[-1].score == 6


def test_right_spot_wrong_rotation_is_wrong():
    room = resolving(3)
    seat = room.lock_holder()
    placements = truth(room)
    spot, card, rotation = placements[2]
    placements[2] = (spot, card, wrong_rotation(rotation))
    room = apply(lay(room, seat, placements), seat, act.Lock())
    res = room.resolution
    assert res.attempt == 2 and not res.checked
    assert res.board[2] is None  # the wrong card went back to the pool
    assert [slot.locked for slot in res.board if slot is not None] == [True, True, True]
    assert [(r.spot, r.card) for r in res.rejected] == [(2, card)]


def test_no_bonus_on_the_second_try():
    room = play_clover(resolving(3), 0, 4)
    assert room.results[-1].score == 4


def test_second_try_counts_locked_cards_too():
    room = play_clover(resolving(3), 3, 3)
    assert room.results[-1].score == 3


def test_a_decoy_on_the_board_is_wrong():
    room = resolving(3)
    seat = room.lock_holder()
    clover = room.current_clover()
    decoy = clover.decoys[0].id
    placements = truth(room)
    placements[0] = (0, decoy, 0)
    room = apply(lay(room, seat, placements), seat, act.Lock())
    res = room.resolution
    assert res.attempt == 2 and res.board[0] is None
    assert decoy not in res.on_board()
    assert (0, decoy) in [(r.spot, r.card) for r in res.rejected]
