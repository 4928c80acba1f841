"""The clover's geometry, exactly as the rules draw it (docs/rules.md)."""

import pytest

from app.rules.geometry import (
    leaf_spots,
    outward_keywords,
    pair,
    pairs,
    shown_word,
    spot_leaves,
    turn,
)

COMPASS = ("N", "E", "S", "W")


@pytest.mark.parametrize(
    ("rotation", "shown"),
    [
        (0, ("N", "E", "S", "W")),
        (1, ("W", "N", "E", "S")),  # a quarter turn clockwise brings W to the top
        (2, ("S", "W", "N", "E")),
        (3, ("E", "S", "W", "N")),
    ],
)
def test_a_card_at_rotation_r_shows_words_e_minus_r_on_edge_e(rotation, shown):
    assert tuple(shown_word(COMPASS, rotation, edge) for edge in range(4)) == shown


@pytest.mark.parametrize(("leaf", "spots"), [(0, (0, 1)), (1, (1, 2)), (2, (2, 3)), (3, (3, 0))])
def test_leaf_i_faces_spot_i_and_the_next_spot(leaf, spots):
    assert leaf_spots(leaf) == spots


@pytest.mark.parametrize(("spot", "leaves"), [(0, (0, 3)), (1, (1, 0)), (2, (2, 1)), (3, (3, 2))])
def test_each_spot_faces_two_leaves(spot, leaves):
    assert spot_leaves(spot) == leaves


def _clover_at_rotation_zero():
    # Spot s holds card s: its words name the spot and the edge.
    return [((f"{s}top", f"{s}right", f"{s}bottom", f"{s}left"), 0) for s in range(4)]


def test_pairs_at_rotation_zero_match_rules_md():
    cards = _clover_at_rotation_zero()
    assert pairs(cards) == (
        ("0top", "1top"),  # leaf 0 = TL top + TR top
        ("1right", "2right"),  # leaf 1 = TR right + BR right
        ("2bottom", "3bottom"),  # leaf 2 = BR bottom + BL bottom
        ("3left", "0left"),  # leaf 3 = BL left + TL left
    )


def test_turning_a_card_changes_which_of_its_words_face_out():
    cards = _clover_at_rotation_zero()
    cards[0] = (cards[0][0], 1)  # TL a quarter turn clockwise: its left word goes on top
    assert pair(cards, 0) == ("0left", "1top")
    assert pair(cards, 3) == ("3left", "0bottom")


def test_eight_outward_keywords_two_per_card():
    words = outward_keywords(_clover_at_rotation_zero())
    assert len(words) == 8
    for s in range(4):
        assert sum(w.startswith(str(s)) for w in words) == 2


@pytest.mark.parametrize(
    ("rotation", "turns", "after"), [(0, 1, 1), (3, 1, 0), (0, -1, 3), (2, -1, 1)]
)
def test_quarter_turns_wrap_around(rotation, turns, after):
    assert turn(rotation, turns) == after
