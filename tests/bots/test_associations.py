"""The bots' second sense of words: what it knows, what it adds to a guess, and that
nothing of it is read before a bot thinks."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence

import numpy as np
import pytest

from app.bots.associations import Associations, associations
from app.bots.guessing import relatedness


@pytest.fixture(scope="module")
def sense() -> Associations:
    return associations()


def test_wordnet_links_a_thing_to_what_it_is_and_its_forms(sense: Associations) -> None:
    assert sense.linked("cheddar", "cheese")
    assert sense.linked("Cheese", "Cheddar")  # either way round, whatever the case
    assert sense.linked("velvet", "plush")
    assert sense.linked("detectives", "sherlock")  # a plural read as its lemma
    assert not sense.linked("cheese", "rocket")
    assert not sense.linked("qzxv", "cheese")


def test_wordnet_phrases_join_a_word_to_the_words_it_is_said_with(sense: Associations) -> None:
    assert {"brown", "cane", "corn"} <= sense.partners("Sugar")  # brown sugar, sugar cane
    assert sense.phrase("corn", "Sugar") and sense.phrase("corn", "Belt")  # the corn belt
    assert sense.phrase("Times", "square") and sense.phrase("square", "times")
    assert sense.phrase("sharks", "nurse")  # a plural read as its lemma
    assert not sense.phrase("cheese", "rocket")
    assert sense.partners("Qzxvw") == frozenset()


def test_words_said_together_are_nearer_than_words_that_are_not(sense: Associations) -> None:
    mane, pony, tax = sense.vectors(["mane", "pony", "tax"])
    assert float(mane @ pony) > float(mane @ tax) + 0.3
    assert not np.any(sense.vectors(["Qzxvw"]))  # an unknown word has no vector


def test_an_unknown_clue_adds_nothing_but_links(sense: Associations) -> None:
    fit = sense.fit(["qzxvw", "cheddar"], ["cheese", "rocket", "tax", "pony"])
    assert fit.shape == (2, 4)
    assert np.allclose(fit[0], 0.0)
    assert int(np.argmax(fit[1])) == 0


class Blank:
    """A sentence model that knows nothing: every word the same vector."""

    def vectors(self, words: Sequence[str]) -> object:
        return np.ones((len(words), 4))


def test_an_english_guess_reads_associations_and_another_language_does_not() -> None:
    keywords = ["Rocket", "Cheese", "Tax", "Pony"]
    english = relatedness(["cheddar", "mane"], keywords, Blank(), "en")
    assert [int(i) for i in np.argmax(english, axis=1)] == [1, 3]
    french = relatedness(["cheddar", "mane"], keywords, Blank(), "fr")
    assert np.allclose(french, french[0, 0])  # the bridge alone: nothing to tell apart


def test_a_clue_said_with_a_keyword_is_read_towards_it() -> None:
    """Times Square: WordNet's links do not join the two words, and GloVe puts "times"
    nearer Tax than Square."""
    keywords = ["Square", "Cheese", "Tax", "Pony"]
    fit = relatedness(["times"], keywords, Blank(), "en")
    assert int(np.argmax(fit[0])) == 0
    assert not associations().linked("times", "square")


def test_the_server_reads_no_association_until_a_bot_thinks() -> None:
    script = (
        "import app.main, app.bots.thinking, app.bots.associations as a; "
        "import sys; sys.exit(1 if a._loaded else 0)"
    )
    assert subprocess.run([sys.executable, "-c", script], check=False).returncode == 0
