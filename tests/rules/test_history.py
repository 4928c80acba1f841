"""The game remembered: clovers and their tries replayed from the log, and what a seat sees.

A ``Table`` plays a game through the engine and keeps its log the way the
service does (the state after ``Start``, then every accepted action with its
``seq`` and seat), so the history is rebuilt here exactly as it is from the
database, without one.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules import actions as act
from app.rules.engine import apply
from app.rules.errors import RuleError
from app.rules.history import GameRecord, LogMismatch, Step, follow, record_game
from app.rules.scoring import points
from app.rules.state import Room
from app.rules.views import View, history_view

from .support import NAMES, started, truth, wrong_rotation


def clues_of(seat: int) -> tuple[str, ...]:
    """Clues of one seat's own, so a test can tell whose clover a clue belongs to."""
    return tuple(f"Clue{seat}x{leaf}" for leaf in range(4))


class Table:
    """A game played through the engine with its log kept, as the service keeps it."""

    def __init__(self, players: int, seed: int = 7, decoys: int = 1, present: bool = True):
        self.start = started(players, seed, decoys, present)
        self.room = self.start
        self.steps: list[Step] = []

    def do(self, seat: int | None, action: act.Action) -> Room:
        self.room = apply(self.room, seat, action)
        self.steps.append(Step(self.room.seq, seat, action))
        return self.room

    def write_clues(self) -> Table:
        for seat in range(len(self.room.players)):
            self.do(seat, act.Clues(clues_of(seat)))
            self.do(seat, act.Done())
        assert self.room.phase == "resolution"
        return self

    def holder(self) -> int:
        seat = self.room.lock_holder()
        assert seat is not None
        return seat

    def lay(self, placements: list[tuple[int, str, int]]) -> None:
        holder = self.holder()
        for spot, card, rotation in placements:
            self.do(holder, act.Place(card=card, spot=spot, rotation=rotation))

    def try_with(self, right: int) -> None:
        """Fill the free spots, the first ``right`` of all four rightly, and lock in."""
        res = self.room.resolution
        assert res is not None
        self.lay(
            [
                (s, c, r if s < right else wrong_rotation(r))
                for s, c, r in truth(self.room)
                if res.board[s] is None
            ]
        )
        self.do(self.holder(), act.Lock())

    def play(self, first: int, second: int | None = None) -> None:
        self.try_with(first)
        if first < 4:
            assert second is not None
            self.try_with(second)

    def record(self) -> GameRecord:
        return record_game(self.start, self.steps)

    def history(self) -> View:
        return history_view(self.record())


def card_ids(room: Room, seat: int) -> set[str]:
    return {card.id for card in room.clovers[seat].all_cards()}


def test_nothing_is_remembered_before_the_first_check():
    table = Table(3).write_clues()
    table.lay(truth(table.room))
    history = table.history()
    assert history == {"code": table.room.code, "seq": table.room.seq, "clovers": []}


def test_a_first_try_that_failed_shows_nothing_of_its_clover_to_any_seat():
    table = Table(4).write_clues()
    spectator = table.room.spectator()
    assert spectator is not None
    table.try_with(2)
    res = table.room.resolution
    assert res is not None and res.attempt == 2 and not res.checked
    # the record holds the try, as a state holds secrets ...
    (being_rebuilt,) = table.record().clovers
    assert len(being_rebuilt.tries) == 1 and being_rebuilt.score is None
    # ... and no seat is shown it, the Spectator's included
    history = table.history()
    assert history["clovers"] == []
    text = json.dumps(history)
    assert not any(clue in text for clue in clues_of(spectator))
    assert not any(card in text for card in card_ids(table.room, spectator))


def test_after_its_reveal_a_clover_shows_with_both_tries():
    table = Table(4).write_clues()
    spectator = table.room.spectator()
    assert spectator is not None
    clover = table.room.clovers[spectator]
    table.play(1, 3)
    assert table.room.resolution is not None and table.room.resolution.checked
    (shown,) = table.history()["clovers"]
    assert shown["turn"] == 0 and shown["score"] == 3
    assert (shown["spectator"], shown["player"], shown["name"]) == (
        spectator,
        table.room.players[spectator].pid,
        NAMES[spectator],
    )
    assert shown["clues"] == list(clues_of(spectator))
    assert [t["attempt"] for t in shown["tries"]] == [1, 2]
    first, second = (t["placements"] for t in shown["tries"])
    assert [p["right"] for p in first] == [True, False, False, False]
    assert [p["right"] for p in second] == [True, True, True, False]
    # the wrong cards of the first try lay on their true spot at a wrong rotation
    for p in first[1:]:
        assert p["card"] == clover.cards[p["spot"]].id
        assert p["rotation"] == wrong_rotation(clover.rotations[p["spot"]])
    assert [p["words"] for p in second] == [list(c.words) for c in clover.cards]
    assert shown["solution"] == [
        {
            "spot": s,
            "card": clover.cards[s].id,
            "words": list(clover.cards[s].words),
            "rotation": clover.rotations[s],
        }
        for s in range(4)
    ]
    assert shown["decoys"] == [{"card": d.id, "words": list(d.words)} for d in clover.decoys]


def test_a_perfect_first_try_is_one_try_worth_six():
    table = Table(3).write_clues()
    table.play(4)
    (shown,) = table.history()["clovers"]
    assert shown["score"] == 6
    assert [[p["right"] for p in t["placements"]] for t in shown["tries"]] == [[True] * 4]


def test_the_next_clovers_clues_never_show_until_their_own_check():
    table = Table(3).write_clues()
    table.play(4)
    table.do(0, act.Next())
    upcoming = table.room.spectator()
    assert upcoming is not None
    table.try_with(0)  # the next clover's first try: nothing right
    text = json.dumps(table.history())
    assert not any(clue in text for clue in clues_of(upcoming))
    unplayed = (upcoming + 1) % 3
    assert not any(clue in text for clue in clues_of(unplayed))
    assert not any(card in text for card in card_ids(table.room, unplayed))
    assert len(table.history()["clovers"]) == 1


def test_a_whole_game_has_one_entry_per_clover_in_the_order_played():
    table = Table(4, seed=11, decoys=2).write_clues()
    for plan in [(4, None), (1, 3), (4, None), (0, 2)]:
        table.play(*plan)
        table.do(table.holder(), act.Next())
    assert table.room.phase == "finished"
    clovers = table.history()["clovers"]
    assert [c["score"] for c in clovers] == [6, 3, 6, 2] == [r.score for r in table.room.results]
    assert [c["turn"] for c in clovers] == [0, 1, 2, 3]
    first = table.room.first_spectator
    assert [c["spectator"] for c in clovers] == [(first + t) % 4 for t in range(4)]
    assert [len(c["tries"]) for c in clovers] == [1, 2, 1, 2]
    assert all(len(c["decoys"]) == 2 for c in clovers)
    assert [c["clues"] for c in clovers] == [list(clues_of(c["spectator"])) for c in clovers]


def test_a_check_made_by_a_presence_report_is_remembered():
    """The last guesser still to agree goes away: the table's agreement checks the clover."""
    table = Table(3).write_clues()
    guessers = [s for s in range(3) if table.room.is_guesser(s)]
    table.lay(truth(table.room))
    table.do(guessers[0], act.Agree())
    assert table.history()["clovers"] == []
    table.do(None, act.Presence(frozenset(s for s in range(3) if s != guessers[1])))
    (shown,) = table.history()["clovers"]
    assert shown["score"] == 6 and len(shown["tries"]) == 1


def test_another_game_in_the_same_room_starts_a_history_of_its_own():
    table = Table(3).write_clues()
    for _turn in range(3):
        table.play(4)
        table.do(0, act.Next())
    assert len(table.history()["clovers"]) == 3
    table.do(1, act.Again())
    assert table.room.phase == "lobby"
    assert table.history()["clovers"] == []
    table.do(0, act.Leave())  # the lobby's own moves replay too
    assert table.record() == GameRecord(table.room.code, table.room.seq)


def test_chat_moves_and_agreements_between_checks_change_nothing_shown():
    table = Table(3).write_clues()
    table.play(4)
    before = table.history()
    spectator = table.room.spectator()
    assert spectator is not None
    table.do(spectator, act.Say("well found", "t"))
    table.do(table.holder(), act.Next())
    table.lay(truth(table.room)[:2])
    table.do(table.holder(), act.Remove(spot=0))
    after = table.history()
    assert after["clovers"] == before["clovers"] and after["seq"] == before["seq"] + 5


def test_a_log_that_skips_a_seq_is_not_this_game():
    table = Table(3).write_clues()
    table.play(4)
    steps = list(table.steps)
    steps[3] = replace(steps[3], seq=steps[3].seq + 1)
    with pytest.raises(LogMismatch):
        record_game(table.start, steps)


def test_a_log_with_an_action_the_rules_refuse_is_not_this_game():
    table = Table(3).write_clues()
    steps = [*table.steps, Step(table.room.seq + 1, table.room.spectator(), act.Lock())]
    with pytest.raises(RuleError):
        record_game(table.start, steps)


# --- properties over games played at random ----------------------------------------------


@st.composite
def a_move(draw, table: Table) -> tuple[int | None, act.Action]:
    """A move a table might make: mostly filling the board, right or wrong, and checking."""
    room = table.room
    res = room.resolution
    assert res is not None
    n = len(room.players)
    kind = draw(st.sampled_from(["fill", "fill", "lock", "agree", "next", "say", "presence"]))
    seat = draw(st.integers(0, n - 1))
    if kind == "fill":
        clover = room.current_clover()
        assert clover is not None
        free = [s for s, slot in enumerate(res.board) if slot is None]
        spot = draw(st.sampled_from(free)) if free else draw(st.integers(0, 3))
        if draw(st.booleans()):
            card, rotation = clover.cards[spot].id, clover.rotations[spot]
        else:
            card, rotation = draw(st.sampled_from(clover.pool_order)), draw(st.integers(0, 3))
        return seat, act.Place(card=card, spot=spot, rotation=rotation)
    if kind == "lock":
        return room.lock_holder(), act.Lock()
    if kind == "agree":
        return seat, act.Agree()
    if kind == "next":
        return seat, act.Next()
    if kind == "say":
        return seat, act.Say("hm", "t")
    return None, act.Presence(frozenset(draw(st.sets(st.integers(0, n - 1)))))


def check_record(record: GameRecord, room: Room) -> None:
    """What must hold of the record of ``room``'s game, whatever was played."""
    assert record.seq == room.seq
    for played in record.clovers:
        clover = played.clover
        assert [t.attempt for t in played.tries] in ([], [1], [1, 2])
        for t in played.tries:
            assert sorted(p.spot for p in t.placements) == [0, 1, 2, 3]  # boards are full
            for p in t.placements:
                truly = (clover.cards[p.spot].id, clover.rotations[p.spot])
                assert p.right == ((p.card, p.rotation) == truly)
        if len(played.tries) == 2:
            first, second = played.tries
            kept = {(p.spot, p.card, p.rotation) for p in first.placements if p.right}
            assert kept <= {(p.spot, p.card, p.rotation) for p in second.placements if p.right}
            assert not all(p.right for p in first.placements)  # a perfect first try ends it
        if played.checked:
            last = played.tries[-1]
            assert played.score == points(last.attempt, sum(p.right for p in last.placements))
    assert [c.score for c in record.clovers if c.checked] == [r.score for r in room.results]


def check_shown(record: GameRecord, room: Room, shown_before: list[View]) -> list[View]:
    """What each seat is shown: the checked clovers only, the same to all, never rewritten."""
    history = history_view(record)
    clovers = history["clovers"]
    assert len(clovers) == len(room.results)
    assert clovers[: len(shown_before)] == shown_before, "a shown clover changed"
    current = room.resolution
    if current is not None and not current.checked:
        spectator = room.spectator()
        assert spectator is not None
        text = json.dumps(history)
        assert not any(card in text for card in card_ids(room, spectator))
        assert not any(clue in text for clue in clues_of(spectator))
    return clovers


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 6), st.integers(0, 2**32), st.integers(1, 4), st.data())
def test_random_games_are_remembered_as_they_were_played(players, seed, decoys, data):
    table = Table(players, seed=seed, decoys=decoys, present=data.draw(st.booleans()))
    record = table.write_clues().record()
    shown: list[View] = []
    for _ in range(data.draw(st.integers(20, 150))):
        if table.room.phase != "resolution":
            break
        seat, action = data.draw(a_move(table))
        before = table.room
        try:
            table.do(seat, action)
        except RuleError:
            continue
        record = follow(record, before, table.room)
        check_record(record, table.room)
        shown = check_shown(record, table.room, shown)
    # the record kept move by move is the one the whole log replays into
    assert record_game(table.start, table.steps) == record
