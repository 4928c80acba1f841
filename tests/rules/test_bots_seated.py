"""Bots in the rules: seated by the host, always present, never hosting, and a bot
standing in for a player who is away until they come back."""

from __future__ import annotations

import pytest

from app.rules import actions as act
from app.rules import errors
from app.rules.engine import apply
from app.rules.state import BOT_NAMES
from app.rules.views import view
from tests.rules.support import CLUES, DECK, lobby, play_clover, resolving, started


def with_bots(people: int, bots: int):  # type: ignore[no-untyped-def]
    room = lobby(people)
    for _ in range(bots):
        room = apply(room, 0, act.AddBot())
    return room


def test_the_host_seats_bots_with_the_first_free_names_always_present() -> None:
    room = with_bots(1, 2)
    assert [(p.name, p.bot, p.present) for p in room.players[1:]] == [
        (BOT_NAMES[0], True, True),
        (BOT_NAMES[1], True, True),
    ]
    room = apply(room, None, act.Presence(frozenset()))  # nobody's sign of life: bots stay
    assert [p.present for p in room.players] == [False, True, True]
    assert [p["bot"] for p in view(room, 0)["players"]] == [False, True, True]


def test_a_person_named_like_a_bot_keeps_the_name_and_the_bot_takes_the_next() -> None:
    room = apply(lobby(1), None, act.Join(BOT_NAMES[0].upper()))
    room = apply(room, 0, act.AddBot())
    assert room.players[2].name == BOT_NAMES[1]


def test_only_the_host_in_the_lobby_seats_bots_and_never_a_seventh_player() -> None:
    room = lobby(2)
    with pytest.raises(errors.NotHost):
        apply(room, 1, act.AddBot())
    for _ in range(4):
        room = apply(room, 0, act.AddBot())
    with pytest.raises(errors.RoomFull):
        apply(room, 0, act.AddBot())
    with pytest.raises(errors.WrongPhase):
        apply(started(3), 0, act.AddBot(), deck=DECK)


def test_a_bot_is_removed_like_an_absent_player_and_never_asked_for_its_seat() -> None:
    room = apply(with_bots(2, 1), None, act.Presence(frozenset({0, 1})))
    assert view(room, 0)["can"]["kick"] == [2]
    room = apply(room, 0, act.Kick(2))
    assert [p.bot for p in room.players] == [False, False]
    room = apply(room, 0, act.AddBot())
    with pytest.raises(errors.BadSeat):
        apply(room, None, act.Claim(2, "c1", "t"))


def test_the_host_title_never_passes_to_a_bot() -> None:
    room = apply(with_bots(2, 2), None, act.Presence(frozenset({1})))
    room = apply(room, 0, act.Leave())  # Ada leaves the lobby: Bea hosts, not a bot
    assert room.players[room.host].name == "Bea"
    room = apply(room, None, act.Presence(frozenset()))  # Bea away: no bot takes the controls
    assert room.players[room.acting_host()].name == "Bea"
    assert room.acting_host() == room.host


def test_a_table_of_one_person_and_two_bots_is_a_game() -> None:
    room = apply(with_bots(1, 2), None, act.Presence(frozenset({0})))
    room = apply(room, 0, act.Start(3), deck=DECK)
    assert room.phase == "clues" and len(room.clovers) == 3


def away_and_stood_in(seat: int = 1):  # type: ignore[no-untyped-def]
    room = started(3)
    room = apply(room, None, act.Presence(frozenset({0, 2})))
    return apply(room, 0, act.StandIn(seat))


def test_the_host_lets_a_bot_play_for_a_player_who_is_away() -> None:
    room = away_and_stood_in(1)
    assert room.players[1].stand_in and not room.players[1].present
    assert view(room, 2)["players"][1]["stand_in"] is True
    assert 1 in room.present_guessers() or room.phase == "clues"
    with pytest.raises(errors.BotStandsIn):
        apply(room, 0, act.StandIn(1))


def test_a_bot_stands_in_only_for_someone_away_and_only_at_the_host_s_word() -> None:
    room = apply(started(3), None, act.Presence(frozenset({0, 2})))
    with pytest.raises(errors.NotHost):
        apply(room, 2, act.StandIn(1))
    with pytest.raises(errors.PlayerPresent):
        apply(room, 0, act.StandIn(2))
    with pytest.raises(errors.BadSeat):
        apply(room, 0, act.StandIn(7))
    with pytest.raises(errors.WrongPhase):
        apply(lobby(3), 0, act.StandIn(1))
    assert view(room, 0, bot_languages=("en",))["can"]["stand_in"] == [1]
    assert view(room, 2, bot_languages=("en",))["can"]["stand_in"] == []


def test_the_player_back_takes_the_seat_back() -> None:
    room = away_and_stood_in(1)
    room = apply(room, None, act.Presence(frozenset({0, 1, 2})))
    assert room.players[1].present and not room.players[1].stand_in


def test_a_stand_in_counts_as_a_guesser_the_table_waits_for() -> None:
    room = resolving(3)
    spectator = room.spectator()
    away = next(s for s in range(3) if s != spectator and s != room.host)
    room = apply(room, None, act.Presence(frozenset(range(3)) - {away}))
    present_before = room.present_guessers()
    assert away not in present_before
    room = apply(room, room.host, act.StandIn(away))
    assert away in room.present_guessers()


def test_another_game_starts_with_no_stand_in() -> None:
    room = away_and_stood_in(1)
    for seat in range(3):
        room = apply(room, seat, act.Clues(CLUES))
        room = apply(room, seat, act.Done())
    while room.phase == "resolution":
        room = apply(play_clover(room, 4), 0, act.Next())
    assert room.phase == "finished" and room.players[1].stand_in
    room = apply(room, 0, act.Again())
    assert not any(p.stand_in for p in room.players)
