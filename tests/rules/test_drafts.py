"""Clues saved as they are typed: a draft keeps what the rules accept and refuses no clue.

A draft is saved about a second after every pause in typing, so at any moment one
leaf may hold half a keyword. The rules still decide what a leaf may hold: a draft
never stores a clue the checker refuses, it only declines to store it.
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules import actions as act
from app.rules import errors
from app.rules.clues import check_clue
from app.rules.codec import action_from_data, action_to_data
from app.rules.engine import apply
from app.rules.geometry import outward_keywords
from app.rules.views import view

from .support import CLUES, lobby, resolving, started


def refused(room, seat, action, error):
    with pytest.raises(error) as caught:
        apply(room, seat, action)
    return caught.value


def keywords(room, seat):
    return outward_keywords(room.clovers[seat].laid())


def draft(*clues):
    return act.Clues(tuple(clues), draft=True)


def test_a_draft_keeps_the_valid_leaves_and_leaves_a_refused_one_as_it_was():
    room = started(3)
    keyword = keywords(room, 0)[0]
    room = apply(room, 0, draft("Alpha", None, "Charlie", None))
    assert room.clovers[0].clues == ("Alpha", None, "Charlie", None)
    # A keyword typed over a saved clue, a second word begun on an empty leaf: neither
    # is kept, and neither costs the leaves around them.
    room = apply(room, 0, draft(keyword, "Bravo", "two words", "Delta"))
    assert room.clovers[0].clues == ("Alpha", "Bravo", "Charlie", "Delta")
    # The strict save of the same clues refuses them all, naming both leaves.
    error = refused(
        room, 0, act.Clues((keyword, "Bravo", "two words", "Delta")), errors.CluesRejected
    )
    assert [d.leaf for d in error.details] == [0, 2]


def test_a_draft_saves_clues_as_the_strict_save_would():
    room = started(3)
    typed = ("  Alpha ", "Bravo", None, "Delta")
    assert apply(room, 1, draft(*typed)).clovers == apply(room, 1, act.Clues(typed)).clovers
    assert apply(room, 1, draft(*typed)).clovers[1].clues == ("Alpha", "Bravo", None, "Delta")


def test_a_draft_empties_a_leaf_the_player_emptied():
    room = apply(started(3), 0, draft(*CLUES))
    room = apply(room, 0, draft("Alpha", None, "Charlie", "Delta"))
    assert room.clovers[0].clues == ("Alpha", None, "Charlie", "Delta")
    refused(room, 0, act.Done(), errors.CluesMissing)


def test_a_refused_leaf_keeps_its_warning_and_a_kept_one_gets_its_own():
    room = started(3)
    keyword = keywords(room, 0)[0]
    relative = f"{keyword}-xy"  # a compound of the keyword: saved, with a warning
    assert check_clue(relative, keywords(room, 0)).warning is not None
    room = apply(room, 0, draft(relative, "Bravo", None, None))
    warned = room.clovers[0].warnings[0]
    assert warned is not None and room.clovers[0].warnings[1] is None
    room = apply(room, 0, draft(keyword, "Bravo", None, None))
    assert room.clovers[0].clues[0] == relative and room.clovers[0].warnings[0] == warned
    room = apply(room, 0, draft("Alpha", "Bravo", None, None))
    assert room.clovers[0].warnings == (None, None, None, None)


def test_after_drafts_done_takes_the_clues_saved():
    room = started(3)
    keyword = keywords(room, 2)[0]
    room = apply(room, 2, draft("Alpha", "Bravo", "Charlie", keyword))
    refused(room, 2, act.Done(), errors.CluesMissing)
    room = apply(room, 2, draft("Alpha", "Bravo", "Charlie", "Delta"))
    room = apply(room, 2, act.Done())
    assert room.clovers[2].done and room.clovers[2].clues == CLUES


def test_a_draft_is_refused_for_who_and_when_as_any_clues():
    room = started(3)
    refused(lobby(3), 0, draft(*CLUES), errors.WrongPhase)
    refused(resolving(3), 0, draft(*CLUES), errors.WrongPhase)
    refused(room, None, draft(*CLUES), errors.NotAPlayer)
    refused(room, 5, draft(*CLUES), errors.NotAPlayer)
    refused(room, 0, draft("Alpha", "Bravo"), errors.BadClues)
    done = apply(apply(room, 0, act.Clues(CLUES)), 0, act.Done())
    refused(done, 0, draft("Echo", "Bravo", "Charlie", "Delta"), errors.AlreadyDone)
    assert done.clovers[0].clues == CLUES


def test_every_accepted_draft_is_one_change():
    room = started(3)
    keyword = keywords(room, 0)[0]
    after = apply(room, 0, draft(keyword, keyword, keyword, keyword))
    assert after.seq == room.seq + 1 and after.clovers == room.clovers


def test_no_other_seat_learns_anything_of_a_draft():
    room = started(4)
    room = apply(room, 1, draft("Qzsecret", "Qzhidden", None, keywords(room, 1)[0]))
    for seat in (0, 2, 3, None):
        text = json.dumps(view(room, seat))
        assert "Qzsecret" not in text and "Qzhidden" not in text
    assert [leaf["clue"] for leaf in view(room, 1)["clover"]["leaves"]][:2] == [
        "Qzsecret",
        "Qzhidden",
    ]


def test_a_draft_survives_the_action_log():
    stored = action_to_data(draft("a", None, "c", "d"))
    assert stored["draft"] is True
    assert action_from_data(json.loads(json.dumps(stored))) == draft("a", None, "c", "d")
    # Lines written before drafts existed read as the strict save they were.
    assert action_from_data({"type": "clues", "clues": ["a", None, "c", "d"]}) == act.Clues(
        ("a", None, "c", "d")
    )


# --- properties ------------------------------------------------------------------------------


@st.composite
def typed(draw, room, seat):
    """What a leaf may hold at a pause in typing: a word, half a keyword, a keyword, its
    plural, spaces, a second word begun, something too long, or nothing at all."""
    keyword = draw(st.sampled_from(keywords(room, seat)))
    return draw(
        st.sampled_from(
            [
                None,
                "",
                " ",
                keyword,
                keyword.lower(),
                keyword[: max(1, len(keyword) - 1)],
                f"{keyword}s",
                f"{keyword}-xy",
                f"{keyword} and",
                "x" * 33,
                "Alpha",
                "Bravo-Two",
            ]
        )
        | st.text(max_size=8)
    )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 6), st.integers(0, 2**32), st.data())
def test_a_draft_never_stores_a_clue_the_checker_refuses(players, seed, data):
    room = started(players, seed=seed)
    seat = data.draw(st.integers(0, players - 1))
    words = keywords(room, seat)
    for _ in range(data.draw(st.integers(1, 8))):
        clues = tuple(data.draw(typed(room, seat)) for _ in range(4))
        before = room.clovers[seat]
        room = apply(room, seat, act.Clues(clues, draft=True))
        after = room.clovers[seat]
        for leaf, text in enumerate(clues):
            saved = after.clues[leaf]
            if text is None:
                assert saved is None and after.warnings[leaf] is None
                continue
            verdict = check_clue(text, words)
            if verdict.ok:
                warning = verdict.warning.keyword if verdict.warning else None
                assert (saved, after.warnings[leaf]) == (verdict.clue, warning)
            else:
                assert (saved, after.warnings[leaf]) == (before.clues[leaf], before.warnings[leaf])
            assert saved is None or check_clue(saved, words).ok
        # A strict save of the same text either saves exactly what the draft did or nothing.
        try:
            strict = apply(room, seat, act.Clues(clues))
        except errors.CluesRejected:
            continue
        assert strict.clovers[seat] == after
