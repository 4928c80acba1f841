"""The decks this server deals from, as its settings name them."""

from __future__ import annotations

from app.config import Settings
from app.rules.deck import Deck, builtin_deck_path, cards_needed, load_deck
from app.rules.state import MIN_DECOYS, MIN_PLAYERS
from app.service.errors import DeckTooSmallForAnyGame


def load_configured_decks(settings: Settings) -> dict[str, Deck]:
    """The deck of each language: the custom one where it is set, else the built-in one.
    English must load; a language without a deck file is simply not offered."""
    decks = {"en": load_configured_deck(settings)}
    for language, custom in (("fr", settings.keywords_fr), ("zh", settings.keywords_zh)):
        path = custom or builtin_deck_path(language)
        if custom is not None or path.is_file():
            decks[language] = _big_enough(load_deck(path))
    return decks


def load_configured_deck(settings: Settings) -> Deck:
    """The custom deck if one is set, else the built-in one; refused if no game fits."""
    return _big_enough(load_deck(settings.keywords or builtin_deck_path()))


def _big_enough(deck: Deck) -> Deck:
    smallest = cards_needed(MIN_PLAYERS, MIN_DECOYS)
    if len(deck) < smallest:
        raise DeckTooSmallForAnyGame(
            f"{deck.source} has {len(deck)} cards; the smallest game (3 players, 1 decoy) "
            f"needs {smallest}."
        )
    return deck
