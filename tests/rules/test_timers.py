"""The table's clock in the rules: set in the lobby, started by each phase and try,
paused and resumed by the host, and acted on by the server's timeout when enforced."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules import actions as act
from app.rules import errors
from app.rules.codec import room_from_data, room_to_data
from app.rules.engine import apply, play
from app.rules.scoring import PERFECT_SCORE
from app.rules.state import GRACE_MS
from app.rules.timers import due
from app.rules.views import view

from .support import CLUES, DECK, lay, lobby, truth

T0 = 1_796_000_000_000
"""A moment of the server's clock, in epoch ms."""
MINUTE = 60_000


def timed(players=3, clues=("off", 5), rebuild=("off", 3), present=True):
    room = lobby(players)
    if present:
        room = apply(room, None, act.Presence(frozenset(range(players))))
    room = apply(room, 0, act.Timer("clues", *clues))
    room = apply(room, 0, act.Timer("rebuild", *rebuild))
    return apply(room, 0, act.Start(7, now=T0), deck=DECK)


def all_written(room, now=T0 + 1000):
    for seat in range(len(room.players)):
        room = apply(room, seat, act.Clues(CLUES, now=now))
        room = apply(room, seat, act.Done(now=now))
    return room


# --- settings ---------------------------------------------------------------------


def test_timers_are_off_until_the_host_sets_them():
    room = lobby(3)
    assert view(room, 0)["timers"] == {
        "clues": {"mode": "off", "minutes": 5},
        "rebuild": {"mode": "off", "minutes": 3},
    }
    started = apply(room, 0, act.Start(7, now=T0), deck=DECK)
    assert started.countdown is None
    assert view(started, 0)["clock"] is None


def test_the_host_sets_each_timer_in_the_lobby():
    room = apply(lobby(3), 0, act.Timer("clues", "enforced", 15))
    room = apply(room, 0, act.Timer("rebuild", "advisory", 1))
    assert view(room, 1)["timers"] == {
        "clues": {"mode": "enforced", "minutes": 15},
        "rebuild": {"mode": "advisory", "minutes": 1},
    }


@pytest.mark.parametrize(
    "timer",
    [
        act.Timer("clues", "strict", 3),
        act.Timer("lobby", "advisory", 3),
        act.Timer("clues", "advisory", 0),
        act.Timer("rebuild", "enforced", 16),
        act.Timer("rebuild", "", -1),
    ],
)
def test_a_timer_out_of_its_choices_is_refused(timer):
    with pytest.raises(errors.BadTimer):
        apply(lobby(3), 0, timer)


def test_only_the_host_sets_a_timer_and_only_in_the_lobby():
    with pytest.raises(errors.NotHost):
        apply(lobby(3), 1, act.Timer("clues", "advisory", 3))
    with pytest.raises(errors.WrongPhase):
        apply(timed(), 0, act.Timer("clues", "advisory", 3))


# --- the clue clock -----------------------------------------------------------------


def test_the_clue_clock_starts_with_the_game_at_an_absolute_deadline():
    room = timed(clues=("advisory", 4))
    assert room.countdown.ends == T0 + 4 * MINUTE
    clock = view(room, 2)["clock"]
    assert clock["kind"] == "clues"
    assert clock["mode"] == "advisory"
    assert clock["ends_ms"] == T0 + 4 * MINUTE
    assert clock["length_ms"] == 4 * MINUTE
    assert clock["deadline"].endswith("Z")
    # Every seat, and someone without one, counts down to the very same deadline.
    assert {view(room, s)["clock"]["ends_ms"] for s in (0, 1, 2, None)} == {T0 + 4 * MINUTE}


def test_an_advisory_clock_does_nothing_at_zero():
    room = timed(clues=("advisory", 1))
    assert due(room) is None
    with pytest.raises(errors.NotDue):
        apply(room, None, act.Timeout(now=T0 + 10 * MINUTE))


def test_an_enforced_clock_is_not_due_before_its_deadline():
    room = timed(clues=("enforced", 2))
    assert due(room) == T0 + 2 * MINUTE
    with pytest.raises(errors.NotDue):
        apply(room, None, act.Timeout(now=T0 + 2 * MINUTE - 1))


def test_only_the_server_says_time_is_up():
    room = timed(clues=("enforced", 1))
    with pytest.raises(errors.NotSystem):
        apply(room, 0, act.Timeout(now=T0 + 5 * MINUTE))


def test_at_zero_saved_clues_stand_and_the_game_goes_on():
    room = timed(clues=("enforced", 2), rebuild=("enforced", 3))
    for seat in range(3):  # everyone saved four clues; nobody pressed Done
        room = apply(room, seat, act.Clues(CLUES, draft=True, now=T0 + 1000))
    room = apply(room, None, act.Timeout(now=T0 + 2 * MINUTE))
    assert room.phase == "resolution"
    assert all(c.done for c in room.clovers)
    # The first try has a clock of its own, from the moment the clues ran out.
    assert room.countdown.kind == "rebuild"
    assert room.countdown.ends == T0 + 2 * MINUTE + 3 * MINUTE


def test_an_empty_leaf_at_zero_gets_the_grace_then_its_clover_is_not_played():
    room = timed(players=4, clues=("enforced", 2))
    room = apply(room, 0, act.Clues(CLUES, now=T0))
    room = apply(room, 0, act.Done(now=T0))
    room = apply(room, 1, act.Clues(CLUES, draft=True, now=T0))  # saved, not done
    room = apply(room, 2, act.Clues(("Alpha", None, "Gamma", None), draft=True, now=T0))
    # seat 3 wrote nothing
    room = apply(room, None, act.Timeout(now=T0 + 2 * MINUTE))
    assert room.phase == "clues"
    assert room.clovers[1].done
    assert room.countdown.kind == "grace"
    assert room.countdown.ends == T0 + 2 * MINUTE + GRACE_MS
    assert view(room, 0)["clock"]["late"] == [2, 3]
    # Seat 2 finishes within the grace; seat 3 does not.
    room = apply(room, 2, act.Clues(CLUES, now=T0 + 2 * MINUTE + 10_000))
    with pytest.raises(errors.NotDue):
        apply(room, None, act.Timeout(now=T0 + 2 * MINUTE + GRACE_MS - 1))
    room = apply(room, None, act.Timeout(now=T0 + 2 * MINUTE + GRACE_MS))
    assert room.phase == "resolution"
    assert room.clovers[2].done and not room.clovers[2].dropped
    assert room.clovers[3].dropped
    # Their clover is not played, but they still guess the others.
    assert 3 not in room.turns()
    assert not room.players[3].out
    assert view(room, 0)["players"][3]["not_played"] is True
    assert view(room, 0)["max"] == 3 * PERFECT_SCORE


def test_the_last_done_within_the_grace_starts_the_clovers():
    room = timed(clues=("enforced", 1), rebuild=("advisory", 2))
    for seat in (0, 1):
        room = apply(room, seat, act.Clues(CLUES, now=T0))
        room = apply(room, seat, act.Done(now=T0))
    room = apply(room, None, act.Timeout(now=T0 + MINUTE))
    assert room.countdown.kind == "grace"
    room = apply(room, 2, act.Clues(CLUES, now=T0 + MINUTE + 5000))
    room = apply(room, 2, act.Done(now=T0 + MINUTE + 6000))
    assert room.phase == "resolution"
    assert room.countdown.kind == "rebuild"
    assert room.countdown.mode == "advisory"
    assert room.countdown.ends == T0 + MINUTE + 6000 + 2 * MINUTE


def test_a_game_whose_every_clover_ran_out_ends_without_a_score_for_the_legends():
    room = timed(clues=("enforced", 1))
    room = apply(room, None, act.Timeout(now=T0 + MINUTE))
    played = play(room, None, act.Timeout(now=T0 + MINUTE + GRACE_MS))
    assert played.room.phase == "finished"
    assert played.room.countdown is None
    assert played.finished is False  # nothing for the Record of Legends


# --- the rebuild clock ----------------------------------------------------------------


def test_at_zero_the_board_is_checked_as_it_stands():
    room = all_written(timed(rebuild=("enforced", 3)))
    start = T0 + 1000
    assert room.countdown.ends == start + 3 * MINUTE
    holder = room.lock_holder()
    room = lay(room, holder, truth(room)[:2])  # two right cards, two empty spots
    room = apply(room, None, act.Timeout(now=start + 3 * MINUTE))
    res = room.resolution
    assert res.attempt == 2 and not res.checked
    assert sum(1 for slot in res.board if slot is not None and slot.locked) == 2
    # The second try has its own clock; at its zero the clover is scored as it stands.
    second = start + 3 * MINUTE
    assert room.countdown.ends == second + 3 * MINUTE
    room = apply(room, None, act.Timeout(now=second + 3 * MINUTE))
    assert room.resolution.checked
    assert room.results[-1].score == 2
    assert room.countdown is None  # no clock over the reveal
    room = apply(room, 0, act.Next(now=second + 4 * MINUTE))
    assert room.countdown.ends == second + 4 * MINUTE + 3 * MINUTE


def test_an_empty_board_at_zero_scores_nothing():
    room = all_written(timed(rebuild=("enforced", 1)))
    room = apply(room, None, act.Timeout(now=T0 + 1000 + MINUTE))
    room = apply(room, None, act.Timeout(now=T0 + 1000 + 2 * MINUTE))
    assert room.results[-1].score == 0


def test_a_clover_checked_in_time_stops_its_clock():
    room = all_written(timed(rebuild=("enforced", 3)))
    holder = room.lock_holder()
    room = lay(room, holder, truth(room))
    room = apply(room, holder, act.Lock(now=T0 + 5000))
    assert room.resolution.checked
    assert room.countdown is None
    with pytest.raises(errors.NotDue):
        apply(room, None, act.Timeout(now=T0 + 10 * MINUTE))


# --- pausing ----------------------------------------------------------------------------


def test_a_paused_table_holds_the_time_left_and_resumes_from_it():
    room = timed(clues=("enforced", 5))
    room = apply(room, 0, act.Pause(now=T0 + MINUTE))
    assert room.paused
    assert room.countdown.ends is None and room.countdown.left == 4 * MINUTE
    assert due(room) is None
    clock = view(room, 1)["clock"]
    assert clock["ends_ms"] is None and clock["left_ms"] == 4 * MINUTE
    with pytest.raises(errors.NotDue):
        apply(room, None, act.Timeout(now=T0 + 60 * MINUTE))
    room = apply(room, 0, act.Resume(now=T0 + 30 * MINUTE))
    assert not room.paused
    assert room.countdown.ends == T0 + 34 * MINUTE


def test_a_clock_that_starts_while_paused_waits_for_the_resume():
    room = timed(clues=("off", 5), rebuild=("enforced", 2))
    room = apply(room, 0, act.Pause(now=T0))
    room = all_written(room)
    assert room.countdown.left == 2 * MINUTE and room.countdown.ends is None
    room = apply(room, 0, act.Resume(now=T0 + 9 * MINUTE))
    assert room.countdown.ends == T0 + 11 * MINUTE


def test_pausing_is_the_hosts_and_needs_a_clock():
    with pytest.raises(errors.NoClock):
        apply(timed(), 0, act.Pause(now=T0))
    room = timed(rebuild=("advisory", 2))
    with pytest.raises(errors.NotHost):
        apply(room, 1, act.Pause(now=T0))
    with pytest.raises(errors.NotPaused):
        apply(room, 0, act.Resume(now=T0))
    room = apply(room, 0, act.Pause(now=T0))
    with pytest.raises(errors.AlreadyPaused):
        apply(room, 0, act.Pause(now=T0))
    with pytest.raises(errors.WrongPhase):
        apply(lobby(3), 0, act.Pause(now=T0))


def test_a_new_game_starts_unpaused():
    room = timed(rebuild=("advisory", 2))
    room = apply(room, 0, act.Pause(now=T0))
    room = apply(room, None, act.Presence(frozenset({0, 1})))
    for seat in (1, 2):
        room = apply(room, seat, act.Clues(CLUES))
        room = apply(room, seat, act.Done())
    room = apply(room, 0, act.Clues(CLUES))
    room = apply(room, 0, act.Done())
    while room.phase == "resolution":
        holder = room.lock_holder()
        if not room.resolution.checked:
            room = lay(room, holder, truth(room))
            room = apply(room, holder, act.Lock())
        room = apply(room, 0, act.Next())
    assert room.phase == "finished" and not room.paused and room.countdown is None
    room = apply(room, 0, act.Again())
    assert room.rebuild_timer.mode == "advisory"  # the settings stay for the next game


# --- storage and replay -------------------------------------------------------------------


def test_a_timed_room_survives_storage_unchanged():
    room = timed(clues=("enforced", 2), rebuild=("advisory", 9))
    room = apply(room, None, act.Timeout(now=T0 + 2 * MINUTE))
    paused = apply(room, 0, act.Pause(now=T0 + 2 * MINUTE + 5))
    for state in (room, paused):
        assert room_from_data(room_to_data(state)) == state


def test_a_room_stored_before_the_clock_plays_without_one():
    data = room_to_data(lobby(3))
    for key in ("clue_timer", "rebuild_timer", "countdown", "paused"):
        del data[key]
    room = room_from_data(data)
    assert room.countdown is None and not room.timed()


# --- properties --------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["off", "advisory", "enforced"]),
    st.sampled_from(["off", "advisory", "enforced"]),
    st.data(),
)
def test_the_clock_follows_the_table_whatever_happens(clue_mode, rebuild_mode, data):
    """Whatever the players do and whenever time passes: a clock runs exactly while a
    timed stage is under way, it acts only once due, and the game always ends."""
    room = timed(players=3, clues=(clue_mode, 1), rebuild=(rebuild_mode, 1))
    now = T0
    for _ in range(300):
        if room.phase == "finished":
            break
        now += data.draw(st.integers(0, 2 * MINUTE))
        seat = data.draw(st.integers(0, 2))
        choice = data.draw(st.integers(0, 9))
        try:
            if choice == 0:
                room = apply(room, None, act.Timeout(now=now))
            elif choice == 1:
                toggle = act.Resume(now=now) if room.paused else act.Pause(now=now)
                room = apply(room, 0, toggle)
            elif room.phase == "clues":
                room = apply(room, seat, act.Clues(CLUES, now=now))
                room = apply(room, seat, act.Done(now=now))
            elif room.resolution.checked:
                room = apply(room, seat, act.Next(now=now))
            else:
                holder = room.lock_holder()
                if not room.resolution.is_full():
                    free = [s for s, slot in enumerate(room.resolution.board) if slot is None]
                    pool = [p["card"] for p in view(room, holder)["resolution"]["pool"]]
                    room = apply(room, holder, act.Place(pool[0], free[0], 0, now=now))
                else:
                    room = apply(room, holder, act.Lock(now=now))
        except errors.RuleError:
            continue
        timed_stage = (room.phase == "clues" and clue_mode != "off") or (
            room.phase == "resolution" and not room.resolution.checked and rebuild_mode != "off"
        )
        assert (room.countdown is not None) == timed_stage, (room.phase, room.countdown)
        if room.countdown is not None:
            assert (room.countdown.ends is None) == room.paused
            assert (room.countdown.left is None) != room.paused
        assert 0 <= room.total() <= PERFECT_SCORE * len(room.turns())


# --- nothing beats the clock ------------------------------------------------------------


def test_after_an_enforced_deadline_only_the_timeout_is_taken():
    """Whatever comes at or after zero waits for the timeout, a millisecond late or an
    hour: the rules judge by the time stamped in the action, not by when the server's
    clock happened to look."""
    room = timed(clues=("enforced", 2), rebuild=("enforced", 3))
    room = apply(room, 0, act.Clues(CLUES, draft=True, now=T0 + 1000))
    deadline = T0 + 2 * MINUTE
    # a millisecond before zero, still the table's
    assert apply(room, 1, act.Clues(CLUES, now=deadline - 1)).clovers[1].clues == tuple(CLUES)
    for late in (deadline, deadline + 400, deadline + 9 * MINUTE):
        for seat, action in (
            (1, act.Clues(CLUES, now=late)),
            (0, act.Done(now=late)),
            (0, act.Pause(now=late)),
            (2, act.Say("wait!", now=late)),
            (None, act.Presence(frozenset({0, 1, 2}), now=late)),
        ):
            with pytest.raises(errors.TimeUp):
                apply(room, seat, action)
    # after the timeout, the late action is judged on the room it made
    timed_out = apply(room, None, act.Timeout(now=deadline + 9 * MINUTE))
    assert timed_out.clovers[0].done and timed_out.countdown.kind == "grace"
    with pytest.raises(errors.AlreadyDone):
        apply(timed_out, 0, act.Clues(CLUES, now=deadline + 9 * MINUTE))
    late = apply(timed_out, 1, act.Clues(CLUES, now=deadline + 9 * MINUTE))  # within the grace
    assert late.clovers[1].clues == tuple(CLUES)


def test_an_advisory_or_paused_clock_never_holds_an_action_back():
    advisory = timed(clues=("advisory", 1))
    apply(advisory, 0, act.Clues(CLUES, now=T0 + 60 * MINUTE))
    paused = apply(timed(clues=("enforced", 1)), 0, act.Pause(now=T0 + 1000))
    assert apply(paused, 0, act.Clues(CLUES, now=T0 + 60 * MINUTE)).paused


def test_a_try_sent_after_its_deadline_lands_in_the_next_try():
    room = timed(rebuild=("enforced", 3))
    room = all_written(room)
    deadline = room.countdown.ends
    guesser = next(s for s in range(3) if s != room.spectator())
    card = room.current_clover().pool_order[0]
    with pytest.raises(errors.TimeUp):
        apply(room, guesser, act.Place(card, 0, 0, now=deadline + 100))
    checked = apply(room, None, act.Timeout(now=deadline + 100))
    assert checked.resolution.attempt == 2 and checked.countdown.ends == deadline + 100 + 3 * MINUTE
