"""What the API answers of a room reads through its models (app/web/state_schema.py), and
through a client generated from the served /openapi.json.

Two whole games are played through the API in one room, and every answer is kept:
the room as every seat, every watcher and someone with no seat reads it after every
action, each action's answer, the history, the legends and the events of the live
streams. Each one is then read through the models, strictly: a key the view gains
without its description, a type that drifts, fails here.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import typing
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import BaseModel, ValidationError

from app.rules import actions as act
from app.rules import state as rules
from app.web import state_schema as schema
from app.web.state_schema import (
    STREAM_SCHEMA,
    ActionOut,
    HistoryOut,
    LegendsOut,
    MovedEvent,
    RoomState,
    StateEvent,
)

from ..kit import Player, Server, Stream, clues_for, http, table, watch


@dataclass(frozen=True)
class Served:
    """One answer as it came over the wire."""

    kind: str  # "state", "action", "history", "legends", "event"
    who: str
    body: bytes
    event: str = ""  # an event's name


@dataclass
class Game:
    """A room played through the API, every answer about it kept."""

    api: str
    players: list[Player]
    watchers: list[Player] = field(default_factory=list)
    served: list[Served] = field(default_factory=list)
    seen: set[tuple[str, str]] = field(default_factory=set)
    """(phase, reader) pairs read: the phase as a client tells it (``checked`` for a
    clover's reveal), the reader as the state says (a player, the Spectator, a guesser,
    a player out of the game, a watcher, nobody)."""
    _public: httpx.Client = field(default_factory=lambda: http.Client(timeout=10))

    @property
    def code(self) -> str:
        return self.players[0].code

    def url(self, path: str = "") -> str:
        return f"{self.api}/api/rooms/{self.code}{path}"

    def readers(self) -> Iterator[tuple[str, httpx.Client, dict[str, str]]]:
        for p in self.players:
            yield p.name, p.http, p.headers
        for w in self.watchers:
            yield w.name, w.http, w.headers
        yield "nobody", self._public, {}

    def look(self) -> dict[str, Any]:
        """The room as every reader sees it now, its history as a player and as nobody;
        the first player's state."""
        states = []
        for who, client, headers in self.readers():
            r = client.get(self.url(), headers=headers)
            assert r.status_code == 200, (who, r.text)
            self.served.append(Served("state", who, r.content))
            states.append(r.json())
            self.seen.add(_read_as(states[-1]))
        for who, client, headers in [*list(self.readers())[:1], list(self.readers())[-1]]:
            r = client.get(self.url("/history"), headers=headers)
            assert r.status_code == 200, (who, r.text)
            self.served.append(Served("history", who, r.content))
        return states[0]

    def act(self, player: Player, type: str, **fields: Any) -> dict[str, Any]:
        """``player``'s action, its answer kept, then the room read by everyone."""
        r = player.post(type, **fields)
        assert r.status_code == 200, f"{player.name} {type} {fields}: {r.status_code} {r.text}"
        self.served.append(Served("action", player.name, r.content))
        state: dict[str, Any] = r.json()["state"]
        self.seen.add(_read_as(state))
        self.look()
        return state

    def legends(self, **params: Any) -> dict[str, Any]:
        """The legends as nobody reads them, or a room's own as its first player does."""
        reader = self.players[0] if "room" in params else None
        client, headers = (self._public, {}) if reader is None else (reader.http, reader.headers)
        r = client.get(f"{self.api}/api/legends", params=params, headers=headers)
        assert r.status_code == 200, r.text
        self.served.append(
            Served("legends", "nobody" if reader is None else reader.name, r.content)
        )
        return r.json()  # type: ignore[no-any-return]

    def keep_events(self, stream: Stream, who: str, until: str) -> None:
        """The stream's events until ``until``: a ``moved`` event, or the state of the
        room's last seq."""
        last = self.look()["seq"]
        while True:
            event = stream.next()
            self.served.append(Served("event", who, event.data.encode(), event.event))
            if event.event == until or (until == "state" and event.json["seq"] >= last):
                return


def _read_as(state: dict[str, Any]) -> tuple[str, str]:
    res = state["resolution"]
    phase = "checked" if res is not None and res["checked"] else state["phase"]
    you = state["you"]
    if you is None:
        return phase, "nobody"
    if you.get("watcher"):
        return phase, "watcher"
    if state["players"][you["seat"]]["out"]:
        return phase, "out"
    if res is None:
        return phase, "player"
    return phase, "spectator" if res["spectator"] == you["seat"] else "guesser"


# --- playing ---------------------------------------------------------------------------


def by_seat(game: Game, seat: int) -> Player:
    return next(p for p in game.players if p.seat == seat)


def clover_turn(game: Game, *, tries: int) -> dict[str, Any]:
    """One clover, checked after ``tries`` tries: one (the guessers agree on the truth) or
    two (a wrong board locked in, then the truth)."""
    state = game.look()
    res = state["resolution"]
    spectator = by_seat(game, res["spectator"])
    truth = spectator.state()["resolution"]["solution"]
    out = {p["seat"] for p in state["players"] if p["out"]}
    guessers = [p for p in game.players if p.seat not in (spectator.seat, *out)]
    holder = by_seat(game, res["lock_holder"])
    if tries == 1:
        mover = guessers[0]
        game.act(mover, "place", **_placed(truth[0]))
        game.act(mover, "remove", spot=truth[0]["spot"])
        for spot in truth:
            game.act(mover, "place", **_placed(spot))
        game.act(mover, "agree")
        # a move clears every Agree, and the table is told whose
        game.act(mover, "rotate", spot=truth[0]["spot"], turns=1)
        game.act(mover, "rotate", spot=truth[0]["spot"], turns=-1)
        for p in guessers:
            state = game.act(p, "agree")
    else:
        game.act(holder, "place", **_placed(truth[0]))
        for spot in truth[1:]:
            game.act(holder, "place", **_placed(spot, turned=1))
        game.act(guessers[-1], "agree")
        game.act(guessers[-1], "unagree")
        state = game.act(holder, "lock")
        assert state["resolution"]["attempt"] == 2 and state["resolution"]["rejected"]
        for spot in truth[1:]:
            state = game.act(holder, "place", **_placed(spot))
        state = game.act(holder, "lock")
    assert state["resolution"]["checked"]
    game.act(spectator, "say", text="Well found!")
    return game.act(guessers[0], "next")


def _placed(spot: dict[str, Any], turned: int = 0) -> dict[str, Any]:
    return {"card": spot["card"], "spot": spot["spot"], "rotation": (spot["rotation"] + turned) % 4}


def write_clues(game: Game) -> None:
    ada = game.players[0]
    state = ada.state()
    keyword = state["clover"]["leaves"][0]["pair"][0]
    # a clue that looks like a keyword's relative is saved, with a warning
    state = game.act(ada, "clues", clues=[f"{keyword}-Qz", None, None, None], draft=True)
    assert state["warnings"], state["clover"]
    for p in game.players:
        game.act(p, "clues", clues=clues_for(p.seat))
    game.act(ada, "pause")
    game.act(ada, "resume")
    game.act(ada, "done")
    game.act(ada, "undone")
    for p in game.players:
        game.act(p, "done")


def play(api: str) -> Game:
    """Two games in one room: four players, then three, with a watcher, a seat request,
    the clocks, chat, a player out of the game, every kind of try; and the end of a
    stream whose seat moved to another device."""
    game = Game(api, table(api, 4))
    ada, bea, cy, dot = game.players
    game.look()
    game.watchers.append(watch(api, game.code, "Gus"))
    gus = game.watchers[0]
    streams = {
        "Bea": Stream(game.url("/events"), bea.headers),
        "Gus": Stream(game.url("/events"), gus.headers),
        "nobody": Stream(game.url("/events")),
        "Dot": Stream(game.url("/events"), dot.headers),
    }
    game.look()
    # the lobby
    game.act(ada, "settings", decoys=2)
    game.act(ada, "timer", phase="clues", mode="advisory", minutes=5)
    game.act(ada, "timer", phase="rebuild", mode="advisory", minutes=3)
    game.act(ada, "claims_by", who="host")
    game.act(ada, "watchers_chat", on=False)
    game.act(ada, "watchers_chat", on=True)
    game.act(gus, "say", text="Hello, table!")
    game.act(ada, "say", text="Welcome")
    r = http.post(game.url("/claims"), json={"seat": 2})
    assert r.status_code == 201, r.text
    claim = r.json()["claim"]
    game.look()
    game.act(bea, "refuse", claim=claim)
    game.act(ada, "claims_by", who="anyone")
    game.act(ada, "start")
    # the first game
    write_clues(game)
    state = clover_turn(game, tries=1)
    state = clover_turn(game, tries=2)
    # a player leaves the game: out, they keep their seat and watch
    game.act(cy, "leave")
    state = clover_turn(game, tries=1)
    state = clover_turn(game, tries=2)
    assert state["phase"] == "finished"
    game.legends()
    game.legends(players=3)
    game.legends(room=game.code)
    # the second game: the player who was out watches it
    state = game.act(bea, "again")
    game.players.remove(cy)
    game.watchers.append(cy)
    for p in game.players:
        p.seat = next(s["seat"] for s in state["players"] if s["name"] == p.name)
    game.act(ada, "timer", phase="clues", mode="off", minutes=5)
    game.act(ada, "start")
    write_clues(game)
    for _turn in range(3):
        state = clover_turn(game, tries=1)
    assert state["phase"] == "finished"
    game.legends()
    game.legends(room=game.code, decoys=2)
    for who in ("Bea", "Gus", "nobody"):
        game.keep_events(streams[who], who, until="state")
    # Dot's seat moves to another device: Dot's stream ends with a `moved` event
    # (from another address: the one refused in the lobby waits ten minutes to ask again)
    r = http.post(
        game.url("/claims"),
        json={"seat": dot.seat},
        headers={"User-Agent": "iPhone", "X-Forwarded-For": "198.51.100.4"},
    )
    assert r.status_code == 201, r.text
    claimed = r.json()
    game.look()
    game.act(dot, "allow", claim=claimed["claim"])
    game.keep_events(streams["Dot"], "Dot", until="moved")
    dot.token = claimed["token"]
    game.look()
    for stream in streams.values():
        stream.close()
    return game


@pytest.fixture(scope="module")
def game(shared_server: Server) -> Game:
    return play(shared_server.url)


# --- the models ------------------------------------------------------------------------


def test_every_state_of_two_games_reads_through_the_models(game: Game) -> None:
    expected = {
        *((phase, reader) for phase in ("lobby", "clues", "finished") for reader in READERS),
        *((phase, reader) for phase in ("resolution", "checked") for reader in PLAYING),
        ("resolution", "out"),
        ("checked", "out"),
        ("finished", "out"),
    }
    assert expected <= game.seen, expected - game.seen
    counts: dict[str, int] = {}
    for served in game.served:
        model = EVENTS[served.event] if served.kind == "event" else MODELS[served.kind]
        read = model.model_validate_json(served.body, strict=True)
        # read whole: nothing dropped, nothing coerced
        raw = json.loads(served.body)
        assert read.model_dump(mode="json", exclude_unset=True) == raw, served
        counts[served.kind] = counts.get(served.kind, 0) + 1
    assert counts["state"] > 500 and counts["action"] > 100, counts
    assert counts["history"] > 100 and counts["legends"] == 5 and counts["event"] > 100, counts


READERS = ("player", "watcher", "nobody")
PLAYING = ("spectator", "guesser", "watcher", "nobody")
MODELS: dict[str, type[BaseModel]] = {
    "state": RoomState,
    "action": ActionOut,
    "history": HistoryOut,
    "legends": LegendsOut,
}
EVENTS: dict[str, type[BaseModel]] = {"state": StateEvent, "moved": MovedEvent}


def test_every_block_a_state_may_hold_was_read(game: Game) -> None:
    """The game reached every part of the state a model describes: each nullable block
    both null and not, each list both empty and not (so no part is described unread)."""
    states = [json.loads(s.body) for s in game.served if s.kind == "state"]
    for key in ("clover", "resolution", "clock", "best", "legends", "history"):
        assert {s[key] is None for s in states} == {True, False}, key
    for key in ("warnings", "claims", "watchers", "chat"):
        assert {not s[key] for s in states} == {True, False}, key
    resolutions = [s["resolution"] for s in states if s["resolution"] is not None]
    for key in ("solution", "decoys", "score"):
        assert {r[key] is None for r in resolutions} == {True, False}, key
    assert {bool(r["rejected"]) for r in resolutions} == {True, False}
    assert any(s["clock"] and s["clock"]["ends_ms"] is None for s in states)  # paused
    events = [json.loads(s.body) for s in game.served if s.event == "state"]
    actions = [e["action"] for e in events if e["action"] is not None]
    assert {"watcher", "claimed", "draft", "cleared"} <= {k for a in actions for k in a}
    assert any(e["action"] is None for e in events)


def schema_models() -> list[type[BaseModel]]:
    return [
        m
        for m in vars(schema).values()
        if isinstance(m, type) and issubclass(m, BaseModel) and m.__module__ == schema.__name__
    ]


def test_the_models_forbid_keys_they_do_not_describe(game: Game) -> None:
    models = schema_models()
    assert len(models) > 30
    for model in models:
        assert model.model_config.get("extra") == "forbid", model
    state = json.loads(next(s.body for s in game.served if s.kind == "state"))
    RoomState.model_validate(state, strict=True)
    with pytest.raises(ValidationError, match="extra_forbidden"):
        RoomState.model_validate({**state, "new": 1}, strict=True)
    players = [{**state["players"][0], "new": 1}, *state["players"][1:]]
    with pytest.raises(ValidationError, match="extra_forbidden"):
        RoomState.model_validate({**state, "players": players}, strict=True)
    with pytest.raises(ValidationError):
        RoomState.model_validate({**state, "phase": "halftime"}, strict=True)


def test_the_closed_sets_are_the_rules_own() -> None:
    def values(alias: Any) -> set[Any]:
        return set(typing.get_args(alias))

    assert values(schema.ActionType) == set(act.BY_TYPE)
    assert values(schema.Language) == set(rules.LANGUAGES)
    assert values(schema.Phase) == set(typing.get_args(rules.Phase))
    assert values(schema.TimerMode) == set(rules.TIMER_MODES)
    assert values(schema.Device) == set(rules.DEVICE_KINDS)
    claims_by = RoomState.model_fields["claims_by"].annotation
    assert values(claims_by) == set(rules.CLAIMS_BY)
    assert set(schema.Timers.model_fields) == set(rules.TIMER_PHASES)


# --- the API's document ----------------------------------------------------------------


def test_openapi_describes_every_field_of_what_the_room_answers(game: Game) -> None:
    document = http.get(f"{game.api}/openapi.json").json()
    paths = document["paths"]
    components = document["components"]["schemas"]

    def answer(path: str, method: str = "get") -> Any:
        return paths[path][method]["responses"]["200"]["content"]

    ref = "#/components/schemas/"
    assert answer("/api/rooms/{code}")["application/json"]["schema"] == {"$ref": f"{ref}RoomState"}
    assert answer("/api/rooms/{code}/history")["application/json"]["schema"]["$ref"] == (
        f"{ref}HistoryOut"
    )
    assert answer("/api/legends")["application/json"]["schema"]["$ref"] == f"{ref}LegendsOut"
    assert answer("/api/rooms/{code}/actions", "post")["application/json"]["schema"]["$ref"] == (
        f"{ref}ActionOut"
    )
    assert answer("/api/rooms/{code}/events")["text/event-stream"]["schema"] == STREAM_SCHEMA
    # every reference resolves; every field is described
    text = json.dumps(document)
    for name in {part.split('"')[0] for part in text.split(f'"{ref}')[1:]}:
        assert name in components, name
    inlined = {schema.ExactModel, StateEvent, MovedEvent, schema.EventAction}
    for model in set(schema_models()) - inlined:
        component = components[model.__name__]
        assert component.get("additionalProperties") is False, model
        for name, prop in component["properties"].items():
            assert prop.get("description"), (model.__name__, name)


# --- a client generated from the document ----------------------------------------------


def generated_client(api: str, folder: Path) -> Any:
    """The models datamodel-code-generator writes from the served /openapi.json, imported."""
    document = folder / "openapi.json"
    document.write_bytes(http.get(f"{api}/openapi.json").content)
    module = folder / "soclover_client.py"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "datamodel_code_generator",
            "--input",
            str(document),
            "--input-file-type",
            "openapi",
            "--output",
            str(module),
            "--output-model-type",
            "pydantic_v2.BaseModel",
            "--target-python-version",
            "3.11",
            "--formatters",
            "builtin",
            "--enum-field-as-literal",
            "all",
            # the paths too: the event stream's data is described there
            "--openapi-scopes",
            "schemas",
            "paths",
            # a field the document does not describe fails the reading
            "--extra-fields",
            "forbid",
            "--disable-timestamp",
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    spec = importlib.util.spec_from_file_location("soclover_client", module)
    assert spec is not None and spec.loader is not None
    client = importlib.util.module_from_spec(spec)
    sys.modules["soclover_client"] = client
    try:
        spec.loader.exec_module(client)
    finally:
        del sys.modules["soclover_client"]
    return client


def test_a_client_generated_from_the_document_reads_the_whole_game(
    game: Game, tmp_path: Path
) -> None:
    client = generated_client(game.api, tmp_path)
    models = {
        "state": client.RoomState,
        "action": client.ActionOut,
        "history": client.HistoryOut,
        "legends": client.LegendsOut,
    }
    finals = []
    events = 0
    for served in game.served:
        raw = json.loads(served.body)
        if served.kind == "event":
            # a `state` event's data is read as one, a `moved` event's is `{}`
            event = client.ApiRoomsCodeEventsGetResponse.model_validate_json(served.body).root
            if served.event == "state":
                assert isinstance(event, BaseModel) and event.state.seq == raw["seq"]
                events += 1
            else:
                assert event == {}
            continue
        read = models[served.kind].model_validate_json(served.body)
        if served.kind == "state" and raw["phase"] == "finished":
            finals.append((read, raw))
        if served.kind == "history":
            assert [c.score for c in read.clovers] == [c["score"] for c in raw["clovers"]]
    assert finals and events > 100
    for read, raw in finals:
        assert read.total == raw["total"] and read.max == raw["max"]
        assert [r.score for r in read.results] == [r["score"] for r in raw["results"]]
        assert read.phase == "finished"
        assert read.history is not None and len(read.history) == len(raw["history"])
        assert read.best is not None and read.best.score == raw["best"]["score"]
