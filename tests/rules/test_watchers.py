"""Watchers: people with the room's link who follow it without a seat.

They see what a guesser sees, may chat when the host allows it, may sit down in
the lobby, and a player out of a game watches the next one from its start.
"""

import pytest

from app.rules import actions as act
from app.rules import errors
from app.rules.engine import apply
from app.rules.history import Step, record_game
from app.rules.state import MAX_WATCHERS
from app.rules.views import WATCHER, view

from .support import DECK, everyone_present, lay, lobby, resolving, started, truth


def watch(room, name="Gus"):
    return apply(room, None, act.Watch(name))


def pid_of(room, name):
    return next(w.pid for w in room.watchers if w.name == name)


def test_anyone_may_watch_in_any_phase_with_an_id_of_their_own():
    for room in (lobby(3), started(3), resolving(3)):
        watched = watch(room)
        gus = watched.watchers[-1]
        assert (gus.name, gus.present) == ("Gus", True)  # their request is a sign of life
        assert gus.pid == room.next_pid and watched.next_pid == room.next_pid + 1
        assert watched.players == room.players and watched.seq == room.seq + 1


@pytest.mark.parametrize(
    ("name", "refusal"),
    [
        ("", errors.BadName),
        ("   ", errors.BadName),
        ("x" * 25, errors.BadName),
        ("\u200b", errors.BadName),
        ("Bea", errors.NameTaken),
        ("bea", errors.NameTaken),
        ("B\u0435a", errors.NameTaken),  # a Cyrillic e: looks like Bea
        ("Gus", errors.NameTaken),
        ("GUS", errors.NameTaken),
    ],
)
def test_a_watchers_name_follows_the_seats_rules_against_players_and_watchers(name, refusal):
    room = watch(lobby(3))
    with pytest.raises(refusal):
        watch(room, name)


def test_a_player_takes_a_watchers_name_and_the_watcher_watches_on_numbered():
    """Players first: watching under a name nobody sits under yet keeps it from nobody."""
    room = watch(watch(lobby(3)), "Gus (2)")
    gus = pid_of(room, "Gus")
    room = apply(room, None, act.Join("gus"))
    assert room.players[-1].name == "gus"
    assert (room.watchers[0].pid, room.watchers[0].name) == (gus, "Gus (3)")
    # a look-alike spelling makes way too, and the numbered name still fits a name's length
    room = watch(lobby(3), "Ж" * 24)
    room = apply(room, None, act.Join("Ж" * 24))
    assert room.watchers[0].name == "Ж" * 20 + " (2)"
    with pytest.raises(errors.NameTaken):  # a watcher never takes a player's name
        watch(room, "ж" * 24)


def test_a_seated_player_or_a_watcher_is_not_a_newcomer_to_watch():
    with pytest.raises(errors.AlreadySeated):
        apply(lobby(3), 1, act.Watch("Gus"))
    # the Spectator above all, whose silence a name of their own would break
    room = resolving(3)
    spectator = room.spectator()
    with pytest.raises(errors.AlreadySeated):
        apply(room, spectator, act.Watch("Gus"))
    out = apply(room, 0, act.Leave()) if spectator != 0 else apply(room, 1, act.Leave())
    with pytest.raises(errors.AlreadySeated):  # out of the game, still seated
        apply(out, 0 if spectator != 0 else 1, act.Watch("Gus"))
    room = watch(room)
    with pytest.raises(errors.AlreadyWatching):
        apply(room, None, act.Watch("Hal"), watcher=pid_of(room, "Gus"))
    assert [w.name for w in room.watchers] == ["Gus"]


def test_fifty_newcomers_at_once_are_all_here_and_the_next_is_turned_away():
    """No report of presence between them: each newcomer counts as here from the start."""
    room = lobby(3)
    for n in range(MAX_WATCHERS):
        room = watch(room, f"W{n}")
    with pytest.raises(errors.WatchersFull):
        watch(room, "Late")
    assert [w.name for w in room.watchers] == [f"W{n}" for n in range(MAX_WATCHERS)]


def test_a_bot_takes_no_watchers_name():
    room = watch(lobby(3), "Basil")
    room = apply(everyone_present(room), 0, act.AddBot())
    assert room.players[-1].name == "Fern" and room.watchers[0].name == "Basil"


def test_a_watcher_sees_what_someone_without_a_seat_sees_and_says_so():
    room = watch(resolving(4))
    mine, public = view(room, WATCHER), view(room, None)
    assert mine["you"] == {"seat": None, "host": False, "watcher": True}
    for key in set(mine) - {"you", "can"}:
        assert mine[key] == public[key], key
    assert mine["resolution"]["solution"] is None and mine["resolution"]["decoys"] is None
    # come while the clover is rebuilt: named to everyone at its check, not before
    assert mine["watchers"] == [] and mine["watchers_held"] and mine["held_lines"] == 0
    room = watch(started(4), "Hal")
    assert view(room, WATCHER)["watchers"] == [
        {"id": pid_of(room, "Hal"), "name": "Hal", "present": True}
    ]


def test_a_watcher_may_not_play():
    room = watch(resolving(3))
    gus = pid_of(room, "Gus")
    card = room.current_clover().pool_order[0]
    for action in (
        act.Place(card, 0),
        act.Agree(),
        act.Lock(),
        act.Next(),
        act.Clues(("a", "b", "c", "d")),
        act.Start(1),
        act.Kick(1),
        act.WatchersChat(on=False),
        act.Allow("x"),
    ):
        with pytest.raises(errors.WatcherCannotPlay) as refused:
            apply(room, None, action, watcher=gus)
        assert refused.value.status == 403


def test_someone_not_watching_is_not_taken_for_a_watcher():
    with pytest.raises(errors.NotAPlayer):
        apply(lobby(3), None, act.Say("hi", "t"), watcher=99)


def test_a_watcher_takes_a_free_seat_in_the_lobby_as_who_they_are():
    room = apply(watch(lobby(3)), None, act.Presence(frozenset({0, 1, 2}), frozenset({3})))
    seated = apply(room, None, act.Sit(), watcher=3)
    assert seated.watchers == ()
    assert seated.players[-1].pid == 3 and seated.players[-1].name == "Gus"
    assert seated.players[-1].present
    assert view(seated, 3)["you"] == {"seat": 3, "host": False}


def test_no_seat_to_take_once_the_game_started_or_the_table_is_full():
    with pytest.raises(errors.GameStarted):
        apply(watch(started(3)), None, act.Sit(), watcher=3)
    with pytest.raises(errors.RoomFull):
        apply(watch(lobby(6)), None, act.Sit(), watcher=6)
    assert not view(watch(lobby(6)), WATCHER)["can"]["sit"]
    assert view(watch(lobby(5)), WATCHER)["can"]["sit"]


def test_a_player_may_not_sit_again():
    with pytest.raises(errors.AlreadySeated):
        apply(lobby(3), 1, act.Sit())


def test_a_watcher_who_leaves_stops_watching():
    room = watch(resolving(3))
    assert apply(room, None, act.Leave(), watcher=3).watchers == ()


def test_watchers_chat_is_marked_and_the_host_may_turn_it_off():
    room = watch(started(3))
    room = apply(room, None, act.Say(" go on ", "t"), watcher=3)
    line = room.chat[-1]
    assert (line.pid, line.name, line.text, line.watcher) == (3, "Gus", "go on", True)
    assert view(room, 1)["chat"][-1]["watcher"] is True
    room = apply(room, 1, act.Say("ok", "t"))
    assert room.chat[-1].watcher is False
    with pytest.raises(errors.NotHost):
        apply(room, 1, act.WatchersChat(on=False))
    quiet = apply(room, 0, act.WatchersChat(on=False))
    assert not quiet.watchers_chat and not view(quiet, WATCHER)["can"]["say"]
    assert view(quiet, 0)["watchers_chat"] is False
    with pytest.raises(errors.WatchersQuiet) as refused:
        apply(quiet, None, act.Say("hello?", "t"), watcher=3)
    assert refused.value.status == 403
    apply(quiet, 1, act.Say("players still talk", "t"))
    talking = apply(quiet, 0, act.WatchersChat(on=True))
    apply(talking, None, act.Say("thanks", "t"), watcher=3)


@pytest.mark.parametrize("text", ["", "   ", "x" * 301, "a\x00b", "\u202eevil"])
def test_a_watchers_chat_line_follows_the_chat_rules(text):
    with pytest.raises(errors.BadText):
        apply(watch(lobby(3)), None, act.Say(text, "t"), watcher=3)


def test_presence_tells_which_watchers_are_here():
    room = watch(watch(lobby(3)), "Hal")
    room = apply(room, None, act.Presence(frozenset({0}), frozenset({4})))
    assert [(w.name, w.present) for w in room.watchers] == [("Gus", False), ("Hal", True)]
    assert [p["present"] for p in view(room, 0)["watchers"]] == [False, True]


def full_of_watchers(present: bool):
    room = lobby(3)
    for n in range(MAX_WATCHERS):
        room = watch(room, f"W{n}")
    here = frozenset(w.pid for w in room.watchers) if present else frozenset()
    return apply(room, None, act.Presence(frozenset({0, 1, 2}), here))


def test_at_the_cap_an_away_watcher_makes_room_or_none_may_come():
    room = full_of_watchers(present=True)
    assert not view(room, None)["can"]["watch"]
    with pytest.raises(errors.WatchersFull) as refused:
        watch(room, "Late")
    assert refused.value.status == 409
    away = apply(
        room, None, act.Presence(frozenset({0, 1, 2}), frozenset(w.pid for w in room.watchers[1:]))
    )
    assert view(away, None)["can"]["watch"]
    came = watch(away, "Late")
    assert len(came.watchers) == MAX_WATCHERS
    assert [w.name for w in came.watchers][-1] == "Late" and "W0" not in [
        w.name for w in came.watchers
    ]


def finish(room):
    while room.phase == "resolution":
        holder = room.lock_holder()
        if room.resolution.checked:
            room = apply(room, holder, act.Next())
        else:
            room = apply(lay(room, holder, truth(room)), holder, act.Lock())
    return room


def test_after_the_game_a_player_out_of_it_watches_the_next_as_who_they_were():
    room = everyone_present(lobby(4))
    room = apply(room, 0, act.Start(3), deck=DECK)
    room = apply(room, 3, act.Leave())
    for seat in range(3):
        room = apply(room, seat, act.Clues(("Alpha", "Bravo", "Charlie", "Delta")))
        room = apply(room, seat, act.Done())
    out_pid = room.players[3].pid
    room = apply(finish(room), 0, act.Again())
    assert [p.name for p in room.players] == ["Ada", "Bea", "Cy"]
    assert [(w.pid, w.name, w.present) for w in room.watchers] == [(out_pid, "Dot", True)]
    seated = apply(room, None, act.Sit(), watcher=out_pid)
    assert seated.players[-1].pid == out_pid and seated.watchers == ()


def test_a_game_whose_log_holds_watchers_actions_replays_into_its_history():
    """The history is replayed from the log: a watcher's line replays by their id."""
    start = started(3)
    room, steps = start, []

    def do(seat, action, watcher=None):
        nonlocal room
        room = apply(room, seat, action, watcher=watcher)
        steps.append(Step(room.seq, seat, action, watcher))

    do(None, act.Watch("Gus"))
    gus = room.watchers[0].pid
    do(None, act.Say("good luck", "t"), watcher=gus)
    for seat in range(3):
        do(seat, act.Clues(("Alpha", "Bravo", "Charlie", "Delta")))
        do(seat, act.Done())
    holder = room.lock_holder()
    for spot, card, rotation in truth(room):
        do(holder, act.Place(card, spot, rotation))
    do(None, act.Say("well done", "t"), watcher=gus)
    do(holder, act.Lock())
    record = record_game(start, steps).settled()
    assert record.seq == room.seq and [c.score for c in record.clovers] == [6]
