"""The interface's catalogs: every string the code and templates use is translated into
French and Chinese, each translation keeps its placeholders, the compiled files are the
catalogs as written, and the French follows French typography."""

from __future__ import annotations

import ast
import gettext
import inspect
import re

import pytest

from app.rules import errors
from app.service import errors as service_errors
from app.web import i18n

from ..kit import ROOT
from ..kit.catalogs import LOCALE, TRANSLATED, catalog, extracted, placeholders


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_string_of_the_interface_is_translated(lang: str) -> None:
    po = catalog(lang)
    translated = set()
    for message in po:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.id and all(strings):
            translated.update(message.id if isinstance(message.id, tuple) else (message.id,))
    missing = sorted(extracted() - translated)
    assert not missing, f"{len(missing)} strings without a {lang} translation: {missing[:20]}"
    fuzzy = sorted(m.id for m in po if m.id and m.fuzzy)
    assert not fuzzy, f"fuzzy (unchecked) {lang} translations: {fuzzy[:20]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalog_holds_no_string_the_interface_no_longer_uses(lang: str) -> None:
    used = extracted()
    stale = sorted(
        str(m.id)
        for m in catalog(lang)
        if m.id and (m.id if isinstance(m.id, str) else m.id[0]) not in used
    )
    assert not stale, f"run `make catalogs`: {stale[:20]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_their_placeholders(lang: str) -> None:
    wrong = []
    for message in catalog(lang):
        if not message.id or not message.string:
            continue
        if isinstance(message.id, tuple):
            expected = placeholders(message.id[1])
            got = [placeholders(s) for s in message.string]
            # A language with one plural form may write the count once, as num.
            if any(set(g) - set(expected) for g in got):
                wrong.append(message.id)
        elif placeholders(message.id) != placeholders(message.string):
            wrong.append(message.id)
    assert not wrong, wrong[:20]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalog_is_the_catalog_as_written(lang: str) -> None:
    with open(LOCALE / lang / "LC_MESSAGES" / "messages.mo", "rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    for message in catalog(lang):
        if not message.id or not message.string or message.fuzzy:
            continue
        if isinstance(message.id, tuple):
            one, many = message.string[0], message.string[-1]  # French: 2 forms, Chinese: 1
            assert (compiled.ngettext(*message.id, 1), compiled.ngettext(*message.id, 5)) == (
                one,
                many,
            ), f"run `make compile-catalogs`: {message.id!r}"
            continue
        assert compiled.gettext(message.id) == message.string, (
            f"run `make compile-catalogs`: {message.id!r}"
        )


NARROW = "\u202f"
NO_BREAK = "\u00a0"
BRAND = re.compile(r"So Clover!(?: table)?")


def french_spacing_problems(text: str) -> list[str]:
    """Where French text puts no, or a breakable, space before ``! ? ; :``; before
    ``»`` and after ``«`` likewise. The brand keeps its own ``!``; markup and
    placeholders are not prose."""
    prose = BRAND.sub("", re.sub(r"<[^>]*>|%\([a-z_]+\)[sd]|\{[a-z_]+\}|https?://\S+", "X", text))
    problems = []
    for found in re.finditer(r"(.)([!?;:»])", prose):
        before, mark = found.groups()
        if before in (NARROW, NO_BREAK) or before in "!?":
            continue
        if mark == ":" and before.isdigit():
            continue  # a time, 12:30
        problems.append(prose[max(0, found.start() - 12) : found.end()])
    for found in re.finditer(r"«(.)", prose):
        if found.group(1) not in (NARROW, NO_BREAK):
            problems.append(prose[found.start() : found.end() + 12])
    return problems


def test_french_puts_a_no_break_space_before_double_punctuation() -> None:
    problems = {}
    for message in catalog("fr"):
        if not message.id:
            continue  # the header
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for string in strings:
            if string and (found := french_spacing_problems(string)):
                problems[message.id] = found
    assert not problems, list(problems.items())[:15]


def test_the_french_spacing_check_sees_what_it_should() -> None:
    assert french_spacing_problems("Prêt ?")  # a plain space breaks before the mark
    assert french_spacing_problems("Prêt?")
    assert not french_spacing_problems(f"Prêt{NARROW}? Oui{NO_BREAK}: à 12:30.")
    assert not french_spacing_problems("Bienvenue à So Clover! table")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_server_reads_each_catalog(lang: str) -> None:
    assert i18n.translate(lang, "You may not do that.") != "You may not do that."
    assert i18n.translate("en", "You may not do that.") == "You may not do that."


def test_every_refusal_the_code_words_itself_is_marked_for_the_catalogs() -> None:
    """A refusal raised with a message of its own passes ``N_("...")``, or a module
    constant bound to one: a bare string or an f-string would reach French and Chinese
    readers in English."""
    refusals = {
        name
        for module in (errors, service_errors)
        for name, value in vars(module).items()
        if inspect.isclass(value) and issubclass(value, errors.RuleError)
    }
    bare = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = {
            target.id: node.value
            for node in tree.body
            if isinstance(node, ast.Assign)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            message = node.args[0]
            if isinstance(message, ast.Name):
                message = constants.get(message.id, message)
            if name in refusals and isinstance(message, (ast.Constant, ast.JoinedStr)):
                bare.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not bare, bare
