"""The practice table: its deal, its bots' script, its lesson's steps, its privacy."""

from __future__ import annotations

import pytest

from app.bots.lesson import decide
from app.rules import actions as act
from app.rules import errors
from app.rules.engine import apply, unopened
from app.rules.geometry import LEAVES, pair
from app.rules.languages import check_clue_in
from app.rules.lesson import STEPS, steps
from app.rules.practice import DEALS, NEWCOMER, truth
from app.rules.state import Room
from app.rules.views import view

from ..kit import ROOT
from .test_properties import assert_allowed_matches_the_engine

LANGUAGES = ("en", "fr", "zh")


def keywords(written) -> list[str]:  # type: ignore[no-untyped-def]
    laid = tuple(zip(written.cards, written.rotations, strict=True))
    return [w for leaf in LEAVES for w in pair(laid, leaf)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_practice_deal_is_cards_of_its_deck_and_its_examples_do_what_they_show(lang):
    deal = DEALS[lang]
    cards = [c for clover in deal.clovers for c in (*clover.cards, clover.decoy)]
    assert len(set(cards)) == 15
    deck = ROOT / ("keywords.txt" if lang == "en" else f"keywords.{lang}.txt")
    lines = deck.read_text(encoding="utf-8").splitlines()
    whole = {tuple(w.strip() for w in line.split(",")) for line in lines if "," in line}
    assert set(cards) <= whole  # whole cards of the deck, keywords in the deck's order
    for clover in deal.clovers[1:]:
        words = keywords(clover)
        for clue in clover.clues:  # the bots' clues: taken, and with no warning
            verdict = check_clue_in(lang, clue, words)
            assert verdict.error is None and verdict.warning is None, clue
    words = keywords(deal.clovers[NEWCOMER])
    assert check_clue_in(lang, deal.refused, words).error is not None
    verdict = check_clue_in(lang, deal.warned, words)
    assert verdict.error is None and verdict.warning is not None


def practice(lang: str = "en") -> Room:
    room = apply(unopened("PRACT1"), None, act.Create("Ada", 1, lang, practice=True))
    return apply(room, 0, act.Start(seed=7))


def bots_play(room: Room) -> Room:
    """The bots' script, played until it has nothing more to do."""
    while True:
        for seat in (1, 2):
            action = decide(view(room, seat))
            if action is not None:
                room = apply(room, seat, action)
                break
        else:
            return room


def lay_right(room: Room, owner: int) -> Room:
    where = truth(room.language, owner)
    for card in view(room, NEWCOMER)["resolution"]["pool"]:
        if tuple(card["words"]) in where:
            spot, rotation = where[tuple(card["words"])]
            room = apply(room, NEWCOMER, act.Place(card["card"], spot, rotation))
    return room


def seen(room: Room) -> list[str]:
    return steps(view(room, NEWCOMER))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_practice_game_meets_every_step_of_the_lesson_in_order(lang):
    met: list[str] = []
    room = practice(lang)
    assert [p.bot for p in room.players] == [False, True, True] and room.practice
    assert_allowed_matches_the_engine(room)
    assert seen(room) == ["clover", "refused", "warned", "write"]
    room = apply(room, NEWCOMER, act.Clues(("a1", DEALS[lang].warned, None, None), draft=True))
    assert seen(room) == ["warned", "write"]  # the warned example, kept, is still said
    met += ["clover", "refused", "warned", "write"]
    room = apply(room, NEWCOMER, act.Clues(("a1", DEALS[lang].warned, "a3", "a4")))
    room = apply(room, NEWCOMER, act.Done())
    assert seen(room) == ["waiting"]
    met.append("waiting")
    room = bots_play(room)
    assert room.phase == "resolution" and room.spectator() == 1
    assert seen(room) == ["spectator", "place"]
    met += ["spectator", "place"]
    card = view(room, NEWCOMER)["resolution"]["pool"][0]["card"]
    room = apply(room, NEWCOMER, act.Place(card, 0, 0))
    assert seen(room) == ["place", "turn"]
    met.append("turn")
    room = apply(room, NEWCOMER, act.Remove(0))
    room = lay_right(room, 1)
    assert seen(room) == ["agree"]
    met.append("agree")
    assert_allowed_matches_the_engine(room)
    room = apply(room, NEWCOMER, act.Agree())
    assert seen(room) == ["agreed"]
    met.append("agreed")
    room = bots_play(room)  # the other guesser agrees: checked
    assert seen(room) == ["reveal"] and room.results[-1].score == 6
    met.append("reveal")
    room = apply(room, NEWCOMER, act.Next())
    room = bots_play(lay_right(room, 2))
    assert 1 in room.resolution.agreed  # the bot agrees on a full board
    assert room.lock_holder() == NEWCOMER and seen(room) == ["lock", "agree"]
    met.append("lock")
    room = apply(room, NEWCOMER, act.Lock())
    assert seen(room) == ["reveal"]
    room = apply(room, NEWCOMER, act.Next())
    assert seen(room) == ["silence"]
    met.append("silence")
    assert_allowed_matches_the_engine(room)
    # The bots rebuild the newcomer's clover: three right, the decoy on the last spot.
    while room.resolution.attempt == 1:
        seat = next(s for s in (1, 2) if decide(view(room, s)) is not None)
        room = apply(room, seat, decide(view(room, seat)))
    assert seen(room) == ["decoy", "second"]
    assert [slot is not None and slot.locked for slot in room.resolution.board] == [
        True,
        True,
        True,
        False,
    ]
    met += ["decoy", "second"]
    room = bots_play(room)
    assert seen(room) == ["reveal"]
    assert (room.results[-1].attempts, room.results[-1].score) == (2, 4)
    room = apply(room, NEWCOMER, act.Next())
    assert room.phase == "finished" and seen(room) == ["score"] and room.total() == 16
    met.append("score")
    assert set(met) == set(STEPS)
    assert_allowed_matches_the_engine(room)


def test_a_practice_table_lets_nobody_else_in_until_it_is_opened_to_friends():
    room = practice()
    for newcomer in (act.Join("Zed"), act.Watch("Zed"), act.Claim(0, "c1", "t")):
        with pytest.raises(errors.PrivateTable) as refused:
            apply(room, None, newcomer)
        assert refused.value.code == "room_not_found" and refused.value.status == 404
    assert steps(view(room, None)) == []
    with pytest.raises(errors.NotHost):
        apply(room, 1, act.Invite())
    room = apply(room, NEWCOMER, act.Invite())
    assert room.phase == "lobby" and not room.practice
    assert [p.name for p in room.players] == ["Ada"] and room.clovers == ()
    assert steps(view(room, NEWCOMER)) == []
    room = apply(room, None, act.Join("Bea"))
    assert [p.name for p in room.players] == ["Ada", "Bea"]
    with pytest.raises(errors.NotPractice):
        apply(room, NEWCOMER, act.Invite())


def test_what_was_said_at_a_practice_table_stays_there_once_it_is_opened_to_friends():
    """Nobody but its player was at the table: the friends the code lets in afterwards
    do not read what was said to the bots, in the lesson or the lobby the host opened."""
    room = apply(practice(), NEWCOMER, act.Say("my own notes, for nobody"))
    assert [line.text for line in room.chat] == ["my own notes, for nobody"]
    room = apply(room, NEWCOMER, act.Invite())
    room = apply(room, None, act.Join("Bea"))
    assert room.chat == () and view(room, 1)["chat"] == []
    room = apply(room, 1, act.Say("Hello!"))
    assert [(line.id, line.text) for line in room.chat] == [(1, "Hello!")]


def test_a_practice_game_is_played_once():
    room = practice()
    assert not view(room, NEWCOMER)["can"]["again"]
    with pytest.raises(errors.WrongPhase):
        apply(room, NEWCOMER, act.Again())
