"""Watchers: people with the room's link who follow it without a seat.

They see what a guesser sees, may chat when the host allows it, may sit down in
the lobby, and a player out of a game watches the next one from its start.
"""

import json

import pytest

from app.rules import actions as act
from app.rules import errors
from app.rules.engine import apply
from app.rules.history import Step, record_game
from app.rules.state import (
    CHAT_KEPT,
    MAX_WATCHERS,
    SENT_AWAY_MS,
    WATCHERS_CHAT_BURST,
    WATCHERS_CHAT_KEPT,
    WATCHERS_CHAT_WINDOW_MS,
)
from app.rules.views import WATCHER, view

from .support import (
    CLUES,
    DECK,
    everyone_present,
    lay,
    lobby,
    play_clover,
    resolving,
    started,
    truth,
)


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


# --- the Spectator keeps silent from any browser ----------------------------------------------

HINT = "psst: top-left is Quokka"
"""A word no deck holds: found in a view, it can only be the watcher's."""


def every_view(room):
    """Every view of ``room``, as JSON text: each seat's, a watcher's and an onlooker's."""
    return [json.dumps(view(room, seat)) for seat in [*range(len(room.players)), WATCHER, None]]


def test_the_spectators_second_browser_reaches_the_table_only_after_the_check():
    """A browser without the Spectator's cookie watches as a stranger: its name and its
    lines wait for the clover's check, read by nobody (watchers included) until then."""
    room = resolving(3)
    room = watch(room, "TL is Quokka")
    zoe = room.watchers[-1].pid
    room = apply(room, None, act.Say(HINT, "2026-12-01T10:00:00Z", now=1_000), watcher=zoe)
    before = room.last_chat_id()
    assert room.chat == resolving(3).chat  # nothing said to the table
    for text in every_view(room):
        assert "Quokka" not in text and HINT not in text
    assert view(room, WATCHER)["held_lines"] == 1 and view(room, 0)["held_lines"] is None
    assert view(room, 0)["watchers_held"] and view(room, 0)["can"]["send_away"] == []

    checked = play_clover(room, 4)
    assert checked.resolution.checked
    line = checked.chat[-1]
    assert (line.text, line.name, line.watcher, line.held) == (HINT, "TL is Quokka", True, True)
    assert line.id > before and checked.held_chat == ()
    shown = view(checked, 0)
    assert shown["chat"][-1]["held"] is True and not shown["watchers_held"]
    assert [w["name"] for w in shown["watchers"]] == ["TL is Quokka"]
    assert shown["can"]["send_away"] == [zoe]


def test_held_lines_come_out_with_any_check_in_the_order_they_were_said():
    room = watch(watch(resolving(3)), "Hal")
    gus, hal = (w.pid for w in room.watchers)
    for n, pid in enumerate((gus, hal, gus)):
        room = apply(room, None, act.Say(f"line {n}", "t", now=n), watcher=pid)
    seat = room.lock_holder()
    placements = truth(room)
    placements[0] = (0, placements[0][1], (placements[0][2] + 1) % 4)
    tried = apply(lay(room, seat, placements), seat, act.Lock())  # one wrong: a second try
    assert not tried.resolution.checked and len(tried.held_chat) == 3
    done = apply(lay(tried, seat, [placements[0]]), seat, act.Lock())
    assert [c.text for c in done.chat[-3:]] == ["line 0", "line 1", "line 2"]
    # after the check, the watchers talk as usual until the next clover
    done = apply(done, None, act.Say("well played", "t", now=20_000), watcher=hal)
    assert not done.chat[-1].held and done.held_chat == ()
    following = apply(done, 0, act.Next())
    assert following.holds_watchers()
    following = apply(following, None, act.Say("hm", "t", now=40_000), watcher=hal)
    assert following.chat == done.chat and len(following.held_chat) == 1


# --- a crowd cannot flood the table -----------------------------------------------------------


def test_the_watchers_share_one_chat_budget_for_the_room():
    room = started(3)
    for n in range(50):
        room = watch(room, f"W{n}")
    pids = [w.pid for w in room.watchers]
    for n in range(WATCHERS_CHAT_BURST):
        room = apply(room, None, act.Say(f"hi {n}", "t", now=1_000 + n), watcher=pids[n])
    with pytest.raises(errors.WatchersChatBusy) as refused:
        apply(room, None, act.Say("me too", "t", now=1_500), watcher=pids[-1])
    assert refused.value.status == 429 and refused.value.code == "watchers_chat_busy"
    apply(room, 1, act.Say("players are never held up by it", "t", now=1_500))
    later = 1_000 + WATCHERS_CHAT_WINDOW_MS + 1
    apply(room, None, act.Say("me too", "t", now=later), watcher=pids[-1])


def test_fifty_watchers_talking_cannot_push_a_players_line_out_of_the_history():
    room = started(3)
    room = apply(room, 1, act.Say("Bea's line", "t", now=1))
    for n in range(50):
        room = watch(room, f"W{n}")
    pids = [w.pid for w in room.watchers]
    now = 10
    for round_ in range(CHAT_KEPT // WATCHERS_CHAT_BURST + 5):  # far more than the history
        for n in range(WATCHERS_CHAT_BURST):
            pid = pids[(round_ * WATCHERS_CHAT_BURST + n) % len(pids)]
            room = apply(room, None, act.Say(f"flood {round_}.{n}", "t", now=now), watcher=pid)
        now += WATCHERS_CHAT_WINDOW_MS
    assert [c.text for c in room.chat if not c.watcher] == ["Bea's line"]
    assert sum(c.watcher for c in room.chat) == WATCHERS_CHAT_KEPT
    assert view(room, 0)["chat"][0]["text"] == "Bea's line"


def test_the_players_keep_their_own_history_beside_the_watchers():
    room = watch(started(3))
    for n in range(CHAT_KEPT + 5):
        room = apply(room, n % 3, act.Say(f"p{n}", "t"))
    room = apply(room, None, act.Say("a watcher", "t", now=1), watcher=3)
    assert next(c.text for c in room.chat if not c.watcher) == "p5"
    assert len(room.chat) == CHAT_KEPT + 1 and room.chat[-1].watcher


# --- the host sends a watcher away ------------------------------------------------------------


def test_the_host_sends_a_watcher_away_for_a_while():
    room = watch(watch(lobby(3)), "Hal")
    gus = pid_of(room, "Gus")
    with pytest.raises(errors.NotHost) as refused:
        apply(room, 1, act.SendAway(gus))
    assert refused.value.status == 403
    with pytest.raises(errors.WatcherCannotPlay):
        apply(room, None, act.SendAway(gus), watcher=pid_of(room, "Hal"))
    with pytest.raises(errors.NoSuchWatcher) as missing:
        apply(room, 0, act.SendAway(99))
    assert missing.value.status == 409

    sent = apply(room, 0, act.SendAway(gus, now=1_000))
    assert [w.name for w in sent.watchers] == ["Hal"]
    assert view(sent, 0)["can"]["send_away"] == [pid_of(room, "Hal")]
    assert view(sent, 1)["can"]["send_away"] == []
    # The same device (its token stood for Gus) may not come back under any name...
    with pytest.raises(errors.WatcherSentAway) as again:
        apply(sent, None, act.Watch("Gus again", former=gus, now=1_000 + SENT_AWAY_MS - 1))
    assert again.value.status == 403 and again.value.code == "sent_away"
    # ...until the while is over; someone else comes at once.
    apply(sent, None, act.Watch("Gus again", former=gus, now=1_000 + SENT_AWAY_MS))
    apply(sent, None, act.Watch("Ida", now=1_001))


def test_a_watcher_sent_away_takes_their_held_lines_with_them():
    room = watch(watch(started(3)), "Hal")
    gus, hal = pid_of(room, "Gus"), pid_of(room, "Hal")
    room = resolving_from(room)
    room = apply(room, None, act.Say("hint", "t", now=1), watcher=gus)
    room = apply(room, None, act.Say("nice", "t", now=2), watcher=hal)
    sent = apply(room, 0, act.SendAway(gus, now=3))
    assert [c.text for c in sent.held_chat] == ["nice"]
    # who came during the clover is nobody to the table yet: the host may not send them
    late = watch(sent, "Ivy")
    with pytest.raises(errors.NoSuchWatcher):
        apply(late, 0, act.SendAway(pid_of(late, "Ivy")))


def resolving_from(room):
    for seat in range(len(room.players)):
        room = apply(room, seat, act.Clues(CLUES))
        room = apply(room, seat, act.Done())
    assert room.phase == "resolution"
    return room


def test_held_lines_count_in_the_budget_before_and_after_the_check():
    room = resolving(3)
    for n in range(WATCHERS_CHAT_BURST):
        room = watch(room, f"W{n}")
    pids = [w.pid for w in room.watchers]
    for n, pid in enumerate(pids):
        room = apply(room, 1, act.Say(f"player {n}", "t", now=1_000 + n))
        room = apply(room, None, act.Say(f"held {n}", "t", now=1_000 + n), watcher=pid)
    with pytest.raises(errors.WatchersChatBusy):
        apply(room, None, act.Say("one more", "t", now=2_000), watcher=pids[0])
    checked = play_clover(room, 4)
    assert next(c.text for c in checked.chat if c.held) == "held 0"
    with pytest.raises(errors.WatchersChatBusy):  # released, still said in the window
        apply(checked, None, act.Say("one more", "t", now=2_000), watcher=pids[0])
    apply(
        checked,
        None,
        act.Say("one more", "t", now=1_000 + WATCHERS_CHAT_WINDOW_MS),
        watcher=pids[0],
    )
