"""Reserved names: nobody at a table goes by a word that passes for the people who run it."""

import pytest

from app.rules import actions as act
from app.rules import errors
from app.rules.engine import apply, new_room
from app.rules.names import is_reserved_name

from .support import lobby


@pytest.mark.parametrize(
    "name",
    [
        "Admin",
        "ADMIN",
        "admin2",
        "Ａｄｍｉｎ",  # full width
        "\u0410dmin",  # a Cyrillic А
        "ADM1N",  # a digit that passes for a letter
        "A d m i n",
        "The Admin",
        "xx_mod_xx",
        "Moderator",
        "System",
        "Server",
        "Host",
        "Staff",
        "Support",
        "So Clover",
        "Administrateur",
        "Modérateur",
        "MODERATRICE",
        "Système",
        "Hôte",
        "Modo",
        "管理员",
        "管理員",
        "我是管理员",
        "版主",
        "系统",
        "客服小王",
    ],
)
def test_a_reserved_word_in_any_case_width_accent_or_lookalike_is_refused(name):
    assert is_reserved_name(name)
    with pytest.raises(errors.ReservedName) as refused:
        apply(lobby(3), None, act.Join(name))
    assert refused.value.status == 422 and refused.value.code == "reserved_name"
    with pytest.raises(errors.ReservedName):
        apply(lobby(3), None, act.Watch(name))
    with pytest.raises(errors.ReservedName):
        new_room("ABCDEF", name)


@pytest.mark.parametrize(
    "name",
    [
        "Modesto",
        "Ghost",
        "Hostetler",
        "Systemic",
        "Adminton",
        "Moderna",
        "Admiral",
        "Serveuse",
        "Hôtel",
        "Mo",
        "Léa",
        "王小明",
        "李伟",
        "Basil",
    ],
)
def test_a_name_that_only_holds_such_a_word_inside_another_is_a_name(name):
    assert not is_reserved_name(name)
    assert apply(lobby(3), None, act.Join(name)).players[-1].name == name


@pytest.mark.parametrize(
    "name",
    [
        "\u0301\u0301",  # two combining accents on nothing
        "\u0301",
        "...",
        "?!",
        "²³",  # superscripts are digits to str.isdigit, and no letter
        "007",
        "① ②",
        "😀",
        "❤️",
        "+-*/",
        "٣٤",  # Arabic-Indic digits
        "_",
    ],
)
def test_a_name_without_a_letter_is_refused_with_its_reason(name):
    """Players' and watchers' names alike, whoever opens the room: a name is someone's."""
    for attempt in (
        lambda: apply(lobby(3), None, act.Join(name)),
        lambda: apply(lobby(3), None, act.Watch(name)),
        lambda: new_room("ABCDEF", name),
    ):
        with pytest.raises(errors.BadName) as refused:
            attempt()
        assert refused.value.status == 422 and refused.value.code == "bad_name"
        assert refused.value.message == "A name needs at least one letter, of any alphabet."


@pytest.mark.parametrize(
    "name", ["李", "ナナ", "Zoé", "R2D2", "Bea 🌸", "Ω", "Ли", "ʻOla", "Agent 007", "김"]
)
def test_a_name_with_a_letter_of_any_alphabet_is_a_name(name):
    assert apply(lobby(3), None, act.Join(name)).players[-1].name == name
    assert apply(lobby(3), None, act.Watch(name)).watchers[-1].name == name
