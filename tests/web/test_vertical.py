"""A side leaf's words cut into script runs: Chinese upright, a Latin word sideways whole."""

from __future__ import annotations

import re

import pytest

from app.web.vertical import UPRIGHT_RANGES, script_runs, vertical_markup

from ..kit import ROOT


@pytest.mark.parametrize(
    ("text", "runs"),
    [
        ("凹凸", [("upright", "凹凸")]),
        ("…", [("upright", "…")]),
        ("·", [("upright", "·")]),
        ("Hamburger", [("sideways", "Hamburger")]),
        ("Chocolate cake", [("sideways", "Chocolate cake")]),
        ("DNA双螺旋", [("sideways", "DNA"), ("upright", "双螺旋")]),
        ("Wi-Fi密码", [("sideways", "Wi-Fi"), ("upright", "密码")]),
        ("iPhone手机", [("sideways", "iPhone"), ("upright", "手机")]),
        ("X光", [("combined", "X"), ("upright", "光")]),
        ("3D打印", [("combined", "3D"), ("upright", "打印")]),
        ("T恤 Superman", [("combined", "T"), ("upright", "恤 "), ("sideways", "Superman")]),
        ("2024年", [("sideways", "2024"), ("upright", "年")]),
        ("哈利·波特", [("upright", "哈利·波特")]),
        ("(DNA)", [("upright", "("), ("sideways", "DNA"), ("upright", ")")]),
        ("Ωμέγα", [("sideways", "Ωμέγα")]),
        ("Éléphant", [("sideways", "Éléphant")]),
        ("ＡＢＣ全角", [("upright", "ＡＢＣ全角")]),  # full-width letters stand, as Chinese
        ("カラオケOK", [("upright", "カラオケ"), ("combined", "OK")]),
        ("", []),
    ],
)
def test_runs_follow_the_rule(text: str, runs: list[tuple[str, str]]) -> None:
    assert script_runs(text) == runs
    assert "".join(part for _, part in runs) == text


def test_the_markup_wraps_the_latin_runs_and_escapes_everything() -> None:
    shown = str(vertical_markup("<img>汉堡&</b>"))
    assert shown == (
        '&lt;<span class="run sideways">img</span>&gt;汉堡&amp;&lt;/'
        '<span class="run combined">b</span>&gt;'
    )
    assert str(vertical_markup("汉堡")) == "汉堡"
    assert str(vertical_markup(None)) == ""
    assert str(vertical_markup('a"b')) == '<span class="run sideways">a&#34;b</span>'


def _ranges(spec: str) -> list[tuple[int, int]]:
    pairs = re.findall(r"(.)-(.)", spec)
    return [(ord(a), ord(b)) for a, b in pairs]


def test_the_page_script_cuts_with_the_same_characters() -> None:
    """The clue being typed is cut in the browser: the same list, or the leaf jumps when
    the saved clue comes back from the server."""
    script = (ROOT / "static/table.js").read_text()
    found = re.search(r"var UPRIGHT = ((?:\"[^\"]*\"\s*\+?\s*)+);", script)
    assert found, "table.js names UPRIGHT"
    written = "".join(re.findall(r'"([^"]*)"', found.group(1)))

    def code_point(match: re.Match[str]) -> str:
        return chr(int(match.group(1) or match.group(2), 16))

    js = re.sub(r"\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})", code_point, written)
    assert _ranges(js) == _ranges(UPRIGHT_RANGES)
    assert len(_ranges(js)) == 15
