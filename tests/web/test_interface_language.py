"""The interface's language over HTTP: chosen with the switch or by the browser, the pages
in it, and the API's messages in it with their codes unchanged."""

from __future__ import annotations

import pytest

from app.rules import errors
from app.service.errors import RoomNotFound
from app.web.i18n import negotiate, translate
from app.web.live import LIVE_REGIONS

from ..kit import Server, assert_error, http, join, table
from ..kit.stream import Stream

FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}
CHINESE = {"Accept-Language": "zh-CN,zh;q=0.9"}


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server.url


# --- which language -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (None, "en"),
        ("", "en"),
        ("fr", "fr"),
        ("fr-CA", "fr"),
        ("de-DE,de;q=0.9,fr;q=0.4,zh;q=0.6", "zh"),
        ("zh-TW", "zh"),
        ("zh-Hans-CN", "zh"),
        ("en-GB,fr;q=0.8", "en"),
        ("fr;q=0", "en"),
        ("de, it", "en"),
        ("*", "en"),
        ("fr;q=abc, zh;q=", "en"),
        (";;;,,,q=1", "en"),
        ("de," * 5000 + "fr", "en"),  # only the first part of a huge header is read
    ],
)
def test_the_browser_language_picks_one_of_ours(header: str | None, lang: str) -> None:
    assert negotiate(header) == lang


def html_lang(page: str) -> str:
    start = page.index('<html lang="') + len('<html lang="')
    return page[start : page.index('"', start)]


def test_the_home_page_speaks_the_browsers_language(api: str) -> None:
    english = http.get(f"{api}/")
    french = http.get(f"{api}/", headers=FRENCH)
    chinese = http.get(f"{api}/", headers=CHINESE)
    assert (html_lang(english.text), html_lang(french.text), html_lang(chinese.text)) == (
        "en",
        "fr",
        "zh-Hans",
    )
    assert translate("fr", "Create a room") in french.text
    assert translate("zh", "Create a room") in chinese.text
    assert "Create a room" in english.text and "Create a room" not in french.text
    for r in (english, french, chinese):
        assert "accept-language" in r.headers["vary"].lower()


def test_the_switch_keeps_a_choice_over_the_browsers(api: str) -> None:
    with http.Client(base_url=api) as browser:
        r = browser.post("/language", data={"to": "zh", "back": "/?left=ABCDE"}, headers=FRENCH)
        assert r.status_code == 303 and r.headers["location"] == "/?left=ABCDE"
        assert "soclover_lang=zh" in r.headers["set-cookie"]
        assert html_lang(browser.get("/", headers=FRENCH).text) == "zh-Hans"
        browser.post("/language", data={"to": "en", "back": "/"})
        assert html_lang(browser.get("/", headers=FRENCH).text) == "en"


@pytest.mark.parametrize(
    "back", ["//evil.example/", "https://evil.example/", "javascript:alert(1)", "", "x" * 300]
)
def test_the_switch_only_goes_back_to_our_own_pages(api: str, back: str) -> None:
    r = http.post(f"{api}/language", data={"to": "fr", "back": back})
    assert r.status_code == 303 and r.headers["location"] == "/"


@pytest.mark.parametrize("to", ["de", "", "fr-FR", "<b>", "x" * 1000])
def test_the_switch_ignores_a_language_we_do_not_have(api: str, to: str) -> None:
    r = http.post(f"{api}/language", data={"to": to, "back": "/"})
    assert r.status_code == 303 and "set-cookie" not in r.headers


def test_the_switch_refuses_another_sites_form(api: str) -> None:
    r = http.post(
        f"{api}/language",
        data={"to": "fr", "back": "/"},
        headers={"Origin": "https://evil.example"},
    )
    assert r.status_code == 403 and "set-cookie" not in r.headers


def test_a_cookie_with_an_unknown_language_falls_back_to_the_browsers(api: str) -> None:
    r = http.get(f"{api}/", headers=FRENCH, cookies={"soclover_lang": "xx"})
    assert html_lang(r.text) == "fr"


def test_a_room_made_from_a_french_home_page_plays_in_french(api: str) -> None:
    with http.Client(base_url=api, headers=FRENCH) as browser:
        r = browser.post("/rooms", data={"name": "Ada", "decoys": "1"})
        assert r.status_code == 303
        code = r.headers["location"].rsplit("/", 1)[1]
        state = browser.get(f"/api/rooms/{code}").json()
        assert state["language"] == "fr"
        room = browser.get(f"/r/{code}")
        assert html_lang(room.text) == "fr" and translate("fr", "Start the game") in room.text


# --- the API's messages ---------------------------------------------------------------------


@pytest.mark.parametrize("headers", [FRENCH, CHINESE])
def test_api_refusals_keep_their_code_and_speak_the_readers_language(
    api: str, headers: dict[str, str]
) -> None:
    lang = headers["Accept-Language"][:2]
    r = http.post(f"{api}/api/rooms", json={"name": "   "}, headers=headers)
    error = assert_error(r, 422, code="bad_name")
    assert error["message"] == translate(lang, errors.BadName.default_message)
    assert error["message"] != errors.BadName.default_message

    r = http.get(f"{api}/api/rooms/ZZZZZ", headers=headers)
    error = assert_error(r, 404, code="room_not_found")
    assert error["message"] == translate(lang, RoomNotFound.default_message)

    ada, bea, _ = table(api, 3)
    r = bea.http.post(
        f"{api}/api/rooms/{ada.code}/actions",
        json={"type": "start"},
        headers={**bea.headers, **headers},
    )
    error = assert_error(r, 403, code="not_host")
    assert error["message"] == translate(lang, errors.NotHost.default_message)

    r = http.post(
        f"{api}/api/rooms", content=b"{", headers={**headers, "Content-Type": "application/json"}
    )
    error = assert_error(r, 400, code="malformed_json")
    assert error["message"] == translate(lang, "The body is not valid JSON.")

    r = http.get(f"{api}/api/nowhere", headers=headers)
    error = assert_error(r, 404, code="not_found")
    assert error["message"] == translate(lang, "There is nothing at this address.")


def test_an_english_reader_gets_the_messages_as_before(api: str) -> None:
    r = http.post(f"{api}/api/rooms", json={"name": "   "})
    assert assert_error(r, 422, code="bad_name")["message"] == errors.BadName.default_message


@pytest.mark.parametrize("headers", [FRENCH, CHINESE])
def test_a_rejected_clue_is_explained_in_the_readers_language(
    api: str, headers: dict[str, str]
) -> None:
    lang = headers["Accept-Language"][:2]
    ada, _, _ = table(api, 3)
    ada.act("start")
    keyword = ada.state()["clover"]["leaves"][0]["pair"][0]
    r = ada.http.post(
        f"{api}/api/rooms/{ada.code}/actions",
        json={"type": "clues", "clues": [keyword, None, None, None]},
        headers={**ada.headers, **headers},
    )
    error = assert_error(r, 422, code="clue_rejected")
    (detail,) = error["details"]
    expected = translate(lang, 'That is one of your keywords: "{keyword}".').format(keyword=keyword)
    assert (detail["code"], detail["message"]) == ("keyword", expected)
    assert expected in error["message"] and keyword in expected
    # The JSON state's warnings stay in English, with the keyword they name.
    state = ada.act("clues", clues=[keyword + "land", None, None, None])
    assert all(w["keyword"] for w in state["warnings"])


def test_a_form_refused_on_a_french_page_says_why_in_french(api: str) -> None:
    ada, _, _ = table(api, 3)
    with http.Client(base_url=api, headers=FRENCH) as browser:
        r = browser.post(f"/r/{ada.code}/join", data={"name": "Ada"})
        assert r.status_code == 422
        assert translate("fr", errors.NameTaken.default_message) in r.text
        assert html_lang(r.text) == "fr"


def test_the_live_regions_follow_each_readers_language(api: str) -> None:
    """One seat open in French and in Chinese: each stream speaks its own page's language."""
    ada, bea, _ = table(api, 3)
    url = f"{api}/r/{ada.code}/stream"
    seat = {"Authorization": f"Bearer {ada.token}"}
    french, chinese = Stream(url, {**seat, **FRENCH}), Stream(url, {**seat, **CHINESE})
    try:
        for stream in (french, chinese):
            stream.take(len(LIVE_REGIONS) + 1)  # every region once, the chat included
        join(api, ada.code, "Dee")
        said = translate("fr", "%(who)s sat down.") % {"who": "Dee"}
        assert said in announced(french, "Dee")
        said = translate("zh", "%(who)s sat down.") % {"who": "Dee"}
        assert said in announced(chinese, "Dee")
    finally:
        french.close()
        chinese.close()
    assert bea.state()["players"][3]["name"] == "Dee"


def announced(stream: Stream, name: str) -> str:
    for _ in range(20):
        event = stream.next()
        if event.event == "announce" and name in event.data:
            return event.data
    raise AssertionError(f"no announcement naming {name}")


def test_names_are_listed_as_each_language_lists_them(api: str) -> None:
    ada, _, _ = table(api, 3)
    english = http.get(f"{api}/r/{ada.code}").text
    chinese = http.get(f"{api}/r/{ada.code}", headers=CHINESE).text
    assert "Ada, Bea, Cy" in english
    assert "Ada、Bea、Cy" in chinese
