"""Who may do what, and when: every action of the API's table and its refusals."""

import copy

import pytest

from app.rules import actions as act
from app.rules import errors
from app.rules.engine import HANDLERS, apply, new_room
from app.rules.views import view

from .support import CLUES, DECK, guessers, lay, lobby, resolving, started, truth


def refused(room, seat, action, error, **kw):
    with pytest.raises(error) as caught:
        apply(room, seat, action, **kw)
    return caught.value


def test_every_action_has_a_handler_and_an_unknown_one_is_refused():
    assert set(HANDLERS) == {act.Create, *act.ACTIONS}
    refused(lobby(3), 0, act.Action(), errors.Invalid)


# --- lobby -------------------------------------------------------------------------


def test_the_creator_is_host_in_seat_zero():
    room = new_room("ABCDE", "  Ada  ", 2)
    assert [p.name for p in room.players] == ["Ada"]
    assert room.host == 0 and room.decoys == 2 and room.phase == "lobby"


def test_seats_follow_join_order_and_names_are_unique_regardless_of_case():
    room = lobby(3)
    assert [p.name for p in room.players] == ["Ada", "Bea", "Cy"]
    refused(room, None, act.Join("ADA"), errors.NameTaken)
    refused(room, None, act.Join("   "), errors.BadName)
    refused(room, None, act.Join("x" * 25), errors.BadName)
    refused(room, None, act.Join("bell\x07"), errors.BadName)


def test_a_room_holds_six_and_refuses_joins_once_started():
    refused(lobby(6), None, act.Join("Gil"), errors.RoomFull)
    refused(started(3), None, act.Join("Gil"), errors.GameStarted)


def test_only_the_host_changes_settings_and_starts():
    room = lobby(3)
    refused(room, 1, act.Settings(2), errors.NotHost)
    refused(room, 1, act.Start(1), errors.NotHost, deck=DECK)
    refused(room, 0, act.Settings(5), errors.BadDecoys)
    refused(room, 0, act.Settings(0), errors.BadDecoys)
    assert apply(room, 0, act.Settings(4)).decoys == 4


def test_a_game_needs_three_to_six_players_and_a_big_enough_deck():
    refused(lobby(2), 0, act.Start(1), errors.NotEnoughPlayers, deck=DECK)
    error = refused(lobby(6, decoys=4), 0, act.Start(1), errors.DeckTooSmall, deck=DECK[:47])
    assert "48" in error.message


def test_leaving_the_lobby_moves_later_seats_down_and_passes_hosting_on():
    room = lobby(4)
    room = apply(room, 0, act.Leave())
    assert [p.name for p in room.players] == ["Bea", "Cy", "Dot"]
    assert room.host == 0 and room.players[room.host].name == "Bea"
    room = apply(room, 1, act.Leave())
    assert [p.name for p in room.players] == ["Bea", "Dot"] and room.host == 0
    assert apply(started(3), 1, act.Leave()).players[1].out  # a game is left, not its seat


def test_the_host_removes_only_an_absent_player():
    room = apply(lobby(4), None, act.Presence(frozenset({0, 1, 3})))
    refused(room, 0, act.Kick(1), errors.PlayerPresent)
    refused(room, 1, act.Kick(2), errors.NotHost)
    refused(room, 0, act.Kick(9), errors.BadSeat)
    room = apply(room, 0, act.Kick(2))
    assert [p.name for p in room.players] == ["Ada", "Bea", "Dot"]


def test_every_accepted_action_advances_seq_by_one():
    room = lobby(3)
    assert room.seq == 2  # two joins after the creation
    assert apply(room, 0, act.Settings(2)).seq == 3


def test_presence_comes_only_from_the_server():
    refused(lobby(3), 0, act.Presence(frozenset()), errors.NotSystem)
    refused(lobby(3), None, act.Settings(2), errors.NotAPlayer)


# --- dealing --------------------------------------------------------------------


def test_the_deal_gives_four_distinct_cards_each_and_never_a_card_twice():
    room = started(6, decoys=4)
    words = [c.words for clover in room.clovers for c in clover.all_cards()]
    assert len(words) == 6 * (4 + 4) == len(set(words))
    for clover in room.clovers:
        assert len(clover.cards) == 4 and len(clover.decoys) == 4
        assert all(r in range(4) for r in clover.rotations)
        assert sorted(clover.pool_order) == sorted(c.id for c in clover.all_cards())


def test_the_deal_is_fixed_by_its_seed_and_differs_between_seeds():
    assert started(4, seed=11).clovers == started(4, seed=11).clovers
    assert started(4, seed=11).clovers != started(4, seed=12).clovers


def test_card_ids_are_fresh_for_every_clover_and_games_differ():
    ids = [c.id for clover in started(6).clovers for c in clover.all_cards()]
    assert len(ids) == len(set(ids))


def test_pool_order_is_shuffled_not_the_deal_order():
    # Over many deals the decoy is not always last, nor spot 0's card always first.
    firsts, lasts = set(), set()
    for seed in range(40):
        clover = started(3, seed=seed).clovers[0]
        firsts.add(clover.pool_order.index(clover.cards[0].id))
        lasts.add(clover.pool_order.index(clover.decoys[0].id))
    assert len(firsts) > 1 and len(lasts) > 1


# --- clues ------------------------------------------------------------------------


def test_clues_are_saved_and_done_needs_all_four():
    room = started(3)
    refused(room, 0, act.Done(), errors.CluesMissing)
    room = apply(room, 0, act.Clues(("Alpha", None, "Charlie", None)))
    assert room.clovers[0].clues == ("Alpha", None, "Charlie", None)
    refused(room, 0, act.Done(), errors.CluesMissing)
    room = apply(room, 0, act.Clues(CLUES))
    room = apply(room, 0, act.Done())
    assert room.clovers[0].done and room.phase == "clues"
    refused(room, 0, act.Clues(CLUES), errors.AlreadyDone)
    room = apply(room, 0, act.Undone())
    assert not room.clovers[0].done
    refused(room, 0, act.Undone(), errors.NotDone)


def test_a_rejected_clue_saves_nothing_and_names_its_leaf():
    room = started(3)
    keyword = room.clovers[0].cards[0].words[(0 - room.clovers[0].rotations[0]) % 4]
    error = refused(
        room, 0, act.Clues(("Alpha", "two words", "Charlie", keyword)), errors.CluesRejected
    )
    assert [(d.leaf, d.code) for d in error.details] == [(1, "not_one_word"), (3, "keyword")]
    refused(room, 0, act.Clues(("Alpha",)), errors.BadClues)


def test_the_clue_phase_ends_when_everyone_is_done():
    room = resolving(3)
    assert room.phase == "resolution"
    res = room.resolution
    assert res.attempt == 1 and not res.checked and res.board == (None,) * 4


def test_clue_actions_need_the_clue_phase():
    refused(lobby(3), 0, act.Clues(CLUES), errors.WrongPhase)
    refused(resolving(3), 0, act.Done(), errors.WrongPhase)


# --- resolution: the board --------------------------------------------------------


def test_the_spectator_cannot_move_agree_or_chat_before_the_check():
    room = resolving(3)
    spectator = room.spectator()
    card = room.current_clover().pool_order[0]
    refused(room, spectator, act.Place(card, 0, 0), errors.SpectatorCannotMove)
    refused(room, spectator, act.Agree(), errors.SpectatorCannotMove)
    refused(room, spectator, act.Say("psst", "t"), errors.SpectatorSilent)
    guesser = guessers(room)[0]
    assert apply(room, guesser, act.Say("hello", "t")).chat[-1].text == "hello"


def test_place_move_turn_and_remove():
    room = resolving(3)
    seat = guessers(room)[0]
    a, b = room.current_clover().pool_order[:2]
    room = apply(room, seat, act.Place(a, 0, 3))
    refused(room, seat, act.Place(b, 0, 0), errors.SpotTaken)
    room = apply(room, seat, act.Place(a, 2, 1))  # moving a card frees its old spot
    assert room.resolution.board[0] is None and room.resolution.board[2].card == a
    room = apply(room, seat, act.Rotate(2, -1))
    room = apply(room, seat, act.Rotate(2, -1))
    assert room.resolution.board[2].rotation == 3
    room = apply(room, seat, act.Remove(2))
    assert room.resolution.board == (None,) * 4
    refused(room, seat, act.Remove(2), errors.SpotEmpty)
    refused(room, seat, act.Rotate(2, 1), errors.SpotEmpty)


@pytest.mark.parametrize(
    ("action", "error"),
    [
        (act.Place("nope", 0, 0), errors.UnknownCard),
        (act.Place("{card}", 4, 0), errors.BadSpot),
        (act.Place("{card}", -1, 0), errors.BadSpot),
        (act.Place("{card}", 0, 4), errors.BadRotation),
        (act.Rotate(0, 2), errors.BadTurns),
        (act.Remove(7), errors.BadSpot),
        (act.Agree(), errors.BoardNotFull),
        (act.Lock(), errors.BoardNotFull),
        (act.Next(), errors.NotChecked),
        (act.Say("", "t"), errors.BadText),
        (act.Say("x" * 301, "t"), errors.BadText),
    ],
)
def test_named_refusals_on_the_board(action, error):
    room = resolving(3)
    seat = room.lock_holder()
    if isinstance(action, act.Place) and action.card == "{card}":
        action = act.Place(room.current_clover().pool_order[0], action.spot, action.rotation)
    before = copy.deepcopy(room)  # a copy: the room itself always equals itself
    refused(room, seat, action, error)
    assert room == before


def test_locked_cards_cannot_be_moved_turned_or_removed():
    room = resolving(3)
    seat = room.lock_holder()
    placements = truth(room)
    spot, card, rotation = placements[3]
    placements[3] = (spot, card, (rotation + 2) % 4)
    room = apply(lay(room, seat, placements), seat, act.Lock())
    locked = room.resolution.board[0]
    assert locked.locked
    refused(room, seat, act.Rotate(0, 1), errors.SpotLocked)
    refused(room, seat, act.Remove(0), errors.SpotLocked)
    refused(room, seat, act.Place(locked.card, 3, 0), errors.CardLocked)
    refused(room, seat, act.Place(card, 0, 0), errors.SpotLocked)


# --- agreeing, locking in, moving on ----------------------------------------------


def test_any_board_change_clears_every_agree():
    room = resolving(4)
    first, second, third = guessers(room)
    room = lay(room, first, truth(room))
    room = apply(room, first, act.Agree())
    room = apply(room, second, act.Agree())
    assert room.resolution.agreed == {first, second}
    room = apply(room, third, act.Rotate(1, 1))
    assert room.resolution.agreed == frozenset()


def test_the_clover_is_checked_when_every_present_guesser_agrees():
    room = resolving(4)
    seats = guessers(room)
    room = lay(room, seats[0], truth(room))
    for seat in seats[:-1]:
        room = apply(room, seat, act.Agree())
        assert not room.resolution.checked
    room = apply(room, seats[-1], act.Unagree())  # harmless when not agreed
    room = apply(room, seats[-1], act.Agree())
    assert room.resolution.checked and room.results[-1].score == 6


def test_absent_guessers_do_not_block_the_table():
    room = resolving(4)
    seats = guessers(room)
    room = apply(room, None, act.Presence(frozenset({room.spectator(), *seats[:2]})))
    room = lay(room, seats[0], truth(room))
    room = apply(room, seats[0], act.Agree())
    assert not room.resolution.checked
    room = apply(room, seats[1], act.Agree())
    assert room.resolution.checked


def test_when_an_agreeing_table_loses_its_last_holdout_the_clover_is_checked():
    room = resolving(3)
    a, _holdout = guessers(room)
    room = lay(room, a, truth(room))
    room = apply(room, a, act.Agree())
    assert not room.resolution.checked
    room = apply(room, None, act.Presence(frozenset({room.spectator(), a})))
    assert room.resolution.checked


def test_the_lock_holder_is_left_of_the_spectator_or_the_next_present_guesser():
    room = resolving(5)
    spectator = room.spectator()
    left, after = (spectator + 1) % 5, (spectator + 2) % 5
    assert room.lock_holder() == left
    everyone_but_left = frozenset(range(5)) - {left}
    room = apply(room, None, act.Presence(everyone_but_left))
    assert room.lock_holder() == after
    room = lay(room, after, truth(room))
    refused(room, left, act.Lock(), errors.NotLockHolder)
    room = apply(room, after, act.Lock())
    assert room.resolution.checked


def test_nobody_moves_a_checked_clover_and_anyone_moves_on():
    room = resolving(3)
    seat = room.lock_holder()
    room = apply(lay(room, seat, truth(room)), seat, act.Lock())
    refused(room, seat, act.Remove(0), errors.AlreadyChecked)
    refused(room, seat, act.Agree(), errors.AlreadyChecked)
    spectator = room.spectator()
    assert apply(room, spectator, act.Say("phew", "t")).chat[-1].pid == room.players[spectator].pid
    room = apply(room, spectator, act.Next())
    assert room.resolution.turn == 1 and room.spectator() == (spectator + 1) % 3


def test_play_again_keeps_the_seats_and_returns_to_the_lobby():
    room = resolving(3)
    for _ in range(3):
        seat = room.lock_holder()
        room = apply(lay(room, seat, truth(room)), seat, act.Lock())
        room = apply(room, seat, act.Next())
    assert room.phase == "finished" and room.total() == 18
    refused(room, 0, act.Start(5), errors.WrongPhase, deck=DECK)
    again = apply(room, 2, act.Again())
    assert again.phase == "lobby" and again.players == room.players
    assert again.results == () and again.clovers == ()
    assert apply(again, 0, act.Start(5), deck=DECK).phase == "clues"


def test_chat_keeps_the_latest_lines():
    room = lobby(3)
    for i in range(205):
        room = apply(room, i % 3, act.Say(f"line {i}", "t"))
    assert len(room.chat) == 200 and room.chat[-1].text == "line 204"


def test_chat_refuses_control_characters_and_bidi_overrides_but_keeps_emoji():
    room = lobby(3)
    for bad in ["a\x00b", "\u202eevil", "ring\x07"]:
        refused(room, 0, act.Say(bad, "t"), errors.BadText)
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467 hi"
    assert apply(room, 0, act.Say(family, "t")).chat[-1].text == family


def test_while_the_host_is_away_the_next_present_player_has_the_host_controls():
    room = apply(lobby(4), None, act.Presence(frozenset({0, 1, 2, 3})))
    away = apply(room, None, act.Presence(frozenset({2, 3})))
    assert away.host == 0 and away.acting_host() == 2
    refused(away, 0, act.Settings(2), errors.NotHost)  # (the server marks an actor present)
    assert apply(away, 2, act.Settings(3)).decoys == 3
    assert view(away, 2)["you"]["host"] and not view(away, 0)["players"][0]["host"]
    back = apply(away, None, act.Presence(frozenset({0, 2})))
    assert back.acting_host() == 0
    refused(back, 2, act.Settings(2), errors.NotHost)
    nobody = apply(room, None, act.Presence(frozenset()))
    assert nobody.acting_host() == 0
