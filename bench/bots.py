"""How well and how fast the bots play: ``python -m bench.bots``.

1. Guessing: bots rebuild the clovers of ``bench/data/clovers.en.jsonl``
   (dealt from the English deck, clues written by hand as people write them),
   with the game's two tries and its scoring. Goal: at least 4.5 of 6 on average.
   ``--lang fr|zh``: the French or Chinese set (``clovers.fr.jsonl``,
   ``clovers.zh.jsonl``), in a room of that language; the bar to offer bots in
   it is 2.0 of 6 (five times chance).
2. Writing and guessing: bots write the clues of freshly dealt clovers and
   other bots rebuild them. Goal: at least 3.5 of 6 (4.5 to offer bots in
   another language). ``--clues FILE`` writes every clue they wrote, one
   clover a line with its pairs, to be read by a person.
3. Decision time: every decision of a bot in those games (a clue phase's four
   clues, each card laid, each Agree), through ``app.bots.player.decide`` on the
   seat's real view, in runs repeated ``--repeat`` times: the median and the
   spread of each run's p99. Goal: p99 at most 200 ms.
4. Bots beside people (``--server``): the main benchmark's action-to-every-client
   latency for rooms of people (``bench.run.measure``, one rate step), on a
   server alone and on a server where 20 rooms of one scripted person and two
   bots play games back to back (at a person's pace; ``--pace 0.1``: ten times
   faster), alternated ``--repeat`` times. Goal: the median p99 moves by less
   than 10 %.

Scores are the same at every run (the bots decide the same from the same
views); times are not: this machine is shared, so runs are repeated.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "data"


def data_file(language: str) -> Path:
    return DATA / f"clovers.{language}.jsonl"


RESULTS = ROOT / "bench" / "results"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


# --- playing whole clovers in memory, through the engine --------------------------------


def play_clover(
    clover: Any, clues: tuple[str, ...], brain: Any, timings: list[float], language: str = "en"
) -> int:
    """Two bots rebuild ``clover`` from ``clues`` with the game's rules; its score.

    The clover is put on the table of a room of one person (its Spectator) and
    two bots, so the bots decide from their seats' real views, as in a game.
    """
    from app.bots.player import decide
    from app.rules import actions as act
    from app.rules.engine import apply, new_room
    from app.rules.state import Resolution
    from app.rules.views import view

    room = new_room("BENCH", "Ada", language=language)
    room = apply(room, 0, act.AddBot())
    room = apply(room, 0, act.AddBot())
    room = apply(room, None, act.Presence(frozenset({0})))
    others = tuple(replace(clover, owner=s, done=True) for s in (1, 2))
    room = replace(
        room,
        phase="resolution",
        clovers=(replace(clover, clues=clues, done=True), *others),
        first_spectator=0,
        resolution=Resolution(turn=0),
    )
    for _ in range(40):
        res = room.resolution
        if res is None or res.checked:
            return room.results[-1].score
        acted = False
        for seat in (1, 2):
            began = time.perf_counter()
            turn = decide(view(room, seat), brain)
            timings.append(time.perf_counter() - began)
            if turn is not None:
                room = apply(room, seat, turn.action)
                acted = True
                break
        if not acted:
            raise RuntimeError("the bots stopped before the clover was checked")
    raise RuntimeError("the bots went round in circles")


def guessing(brain: Any, timings: list[float], language: str = "en") -> dict[str, Any]:
    from app.rules.state import Card, Clover

    scores = []
    for line in data_file(language).read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        cards = tuple(Card(f"t{i}", tuple(words)) for i, words in enumerate(item["cards"]))
        decoys = tuple(Card(f"d{i}", tuple(words)) for i, words in enumerate(item["decoys"]))
        ids = [c.id for c in cards + decoys]
        random.Random(item["id"]).shuffle(ids)
        clover = Clover(0, cards, tuple(item["rotations"]), decoys, tuple(ids))
        scores.append(play_clover(clover, tuple(item["clues"]), brain, timings, language))
    return _scores(scores)


def writing_and_guessing(
    brain: Any,
    count: int,
    timings: list[float],
    language: str = "en",
    written: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    from app.bots.player import decide
    from app.rules import actions as act
    from app.rules.deck import builtin_deck_path, load_deck
    from app.rules.engine import apply, new_room
    from app.rules.views import view

    deck = load_deck(builtin_deck_path(language))
    scores = []
    for seed in range(count):
        # A bot writes its clover's clues from its own seat's view of the clue phase.
        room = new_room("BENCH", "Ada", language=language)
        room = apply(room, 0, act.AddBot())
        room = apply(room, 0, act.AddBot())
        room = apply(room, 0, act.Start(50_000 + seed), deck=deck.cards)
        began = time.perf_counter()
        turn = decide(view(room, 1), brain)
        timings.append(time.perf_counter() - began)
        assert turn is not None and isinstance(turn.action, act.Clues)
        clues = tuple(c or "" for c in turn.action.clues)
        clover = room.clovers[1]
        scores.append(play_clover(clover, clues, brain, timings, language))
        if written is not None:
            from app.rules.geometry import pairs

            pairs_of = [list(pair) for pair in pairs(clover.laid())]
            written.append({"seed": seed, "pairs": pairs_of, "clues": list(clues)})
    return _scores(scores)


def _scores(scores: list[int]) -> dict[str, Any]:
    return {
        "clovers": len(scores),
        "mean": round(statistics.mean(scores), 2),
        "perfect_share": round(sum(s == 6 for s in scores) / len(scores), 2),
        "histogram": {str(k): scores.count(k) for k in range(7)},
    }


# --- bots beside people on a real server ------------------------------------------------


class BotRooms:
    """Rooms of one scripted person and two bots, playing games back to back."""

    def __init__(self, base: str, rooms: int) -> None:
        self.base = base
        self.rooms = rooms
        self.games = 0
        self.actions = 0
        self.errors: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)

    def __enter__(self) -> BotRooms:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(30)

    async def _run(self) -> None:
        import aiohttp

        async with aiohttp.ClientSession() as http:
            await asyncio.gather(*(self._room(http, i) for i in range(self.rooms)))

    async def _room(self, http: Any, i: int) -> None:
        try:
            async with http.post(f"{self.base}/api/rooms", json={"name": f"P{i}"}) as r:
                body = await r.json()
            code, headers = body["code"], {"Authorization": f"Bearer {body['token']}"}
            url = f"{self.base}/api/rooms/{code}"

            async def act(kind: str, **fields: Any) -> dict[str, Any]:
                async with http.post(
                    f"{url}/actions", json={"type": kind, **fields}, headers=headers
                ) as r:
                    self.actions += 1
                    return await r.json()  # type: ignore[no-any-return]

            await act("add_bot")
            await act("add_bot")
            await act("start")
            # The person's page: one stream, read as it comes, as a browser holds it.
            async with http.get(f"{url}/events", headers=headers) as stream:
                data: list[str] = []
                async for raw in stream.content:
                    if self._stop.is_set():
                        return
                    line = raw.decode().rstrip("\r\n")
                    if line.startswith("data:"):
                        data.append(line[5:].strip())
                        continue
                    if line or not data:
                        continue
                    event, data = json.loads("".join(data)), []
                    state = event.get("state") if isinstance(event, dict) else None
                    if state is not None:
                        await self._answer(state, act)
        except Exception as error:  # reported, not raised: the measurement goes on
            self.errors.append(f"room {i}: {error!r}")

    async def _answer(self, state: dict[str, Any], act: Any) -> None:
        """The person's part: clues, an Agree to a full board, Next, another game."""
        res = state["resolution"]
        if state["phase"] == "clues" and state["can"]["write"]:
            await act("clues", clues=["Qzx", "Qzy", "Qzw", "Qzv"])
            await act("done")
        elif res and res["checked"]:
            await asyncio.sleep(2.0)  # reading the reveal
            await act("next")
        elif res and state["can"]["agree"] and 0 not in res["agreed"]:
            await asyncio.sleep(1.0)
            await act("agree")
        elif state["phase"] == "finished":
            self.games += 1
            await act("again")
            await act("start")


def beside_people(repeat: int, rooms: int, rate: float, pace: float, say: Any) -> dict[str, Any]:
    from bench.run import app_server, measure

    runs: dict[str, list[float]] = {"alone": [], "with_bots": []}
    cpu: dict[str, list[float]] = {"alone": [], "with_bots": []}
    bot_games = 0
    for n in range(repeat):
        for kind in ("alone", "with_bots"):
            with tempfile.TemporaryDirectory(prefix="soclover-bench-bots-") as folder:
                workdir = Path(folder)
                server = app_server(kind, f"sqlite:///{workdir}/bench.sqlite3", 1, workdir)
                try:
                    if kind == "with_bots":
                        server.stop()
                        server = _server_with_pace(workdir, str(pace))
                        with BotRooms(server.base, 20) as bots:
                            time.sleep(3)
                            result = measure(server, "app", rooms, [rate], 10.0, 1, n, _quiet)
                        bot_games += bots.games
                        if bots.errors:
                            say(f"  bot rooms: {bots.errors[:3]}")
                    else:
                        result = measure(server, "app", rooms, [rate], 10.0, 1, n, _quiet)
                finally:
                    server.stop()
            step = result["steps"][0]
            runs[kind].append(step["p99_ms"])
            cpu[kind].append(step["server_cpu_pct"])
            say(
                f"  run {n + 1} {kind:>9}: p99 {step['p99_ms']:6.1f} ms (p50 {step['p50_ms']}), "
                f"server CPU {step['server_cpu_pct']} %"
            )
    alone, with_bots = statistics.median(runs["alone"]), statistics.median(runs["with_bots"])
    return {
        "rooms_of_people": rooms,
        "rate": rate,
        "p99_ms": runs,
        "server_cpu_pct": cpu,
        "median_alone_ms": alone,
        "median_with_bots_ms": with_bots,
        "moved_pct": round((with_bots - alone) / alone * 100, 1) if alone else None,
        "bot_games_finished": bot_games,
        "bot_pace": pace,
    }


def _server_with_pace(workdir: Path, pace: str) -> Any:
    from bench.run import BIN, Server

    env = {
        "SOCLOVER_DATABASE_URL": f"sqlite:///{workdir}/bench-bots.sqlite3",
        "SOCLOVER_LOG_LEVEL": "warning",
        "SOCLOVER_CREATE_RATE_PER_MINUTE": "1000000",
        "SOCLOVER_JOIN_RATE_PER_MINUTE": "1000000",
        "SOCLOVER_LOOKUP_RATE_PER_MINUTE": "1000000",
        "SOCLOVER_BOT_PACE": pace,
    }
    return Server("with_bots", [str(BIN / "soclover")], env, workdir)


def _quiet(message: str) -> None:
    pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.bots", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--clovers", type=int, default=100, help="clovers bots write and rebuild")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each timed measurement")
    parser.add_argument("--server", action="store_true", help="also bots beside people (minutes)")
    parser.add_argument("--rooms", type=int, default=100, help="rooms of people, with --server")
    parser.add_argument("--rate", type=float, default=100.0, help="their actions a second")
    parser.add_argument(
        "--pace", type=float, default=1.0, help="the bots' pace (SOCLOVER_BOT_PACE), with --server"
    )
    parser.add_argument("--lang", choices=("en", "fr", "zh"), default="en")
    parser.add_argument("--clues", type=Path, help="write the bots' own clues here (JSON lines)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    language = args.lang
    if args.out is None:
        args.out = RESULTS / ("bots.json" if language == "en" else f"bots.{language}.json")

    def say(message: str) -> None:
        print(message, flush=True)

    from app.bots.brain import Brain

    began = time.perf_counter()
    brain = Brain()
    results: dict[str, Any] = {"brain_load_s": round(time.perf_counter() - began, 2)}
    say(f"brain loaded in {results['brain_load_s']} s")
    if language != "en":
        began = time.perf_counter()
        brain.clue_words(language)
        results["language_load_s"] = round(time.perf_counter() - began, 2)
        say(f"{language} clue words ready in {results['language_load_s']} s")
    results["language"] = language
    p99s, p50s = [], []
    for n in range(args.repeat):
        timings: list[float] = []
        written: list[dict[str, Any]] = []
        results["guessing"] = guessing(brain, timings, language)
        results["writing_and_guessing"] = writing_and_guessing(
            brain, args.clovers, timings, language, written
        )
        if args.clues and n == 0:
            lines = [json.dumps(item, ensure_ascii=False) for item in written]
            args.clues.write_text("\n".join(lines) + "\n", encoding="utf-8")
        p99s.append(percentile(timings, 0.99) * 1000)
        p50s.append(percentile(timings, 0.50) * 1000)
        say(f"run {n + 1}: {len(timings)} decisions, p50 {p50s[-1]:.1f} ms, p99 {p99s[-1]:.1f} ms")
    guess, both = results["guessing"], results["writing_and_guessing"]
    say(
        f"guessing human clues: {guess['mean']} of 6 on average over {guess['clovers']} clovers, "
        f"{guess['perfect_share']:.0%} perfect (goal >= 4.5)"
    )
    say(
        f"bots' clues rebuilt by bots: {both['mean']} of 6 over {both['clovers']} clovers, "
        f"{both['perfect_share']:.0%} perfect (goal >= 3.5)"
    )
    results["decision_ms"] = {
        "p99_median": round(statistics.median(p99s), 1),
        "p99_spread": [round(min(p99s), 1), round(max(p99s), 1)],
        "p50_median": round(statistics.median(p50s), 1),
        "runs": args.repeat,
    }
    d = results["decision_ms"]
    say(
        f"one decision: p99 {d['p99_median']} ms (median of {args.repeat} runs, "
        f"{d['p99_spread'][0]}-{d['p99_spread'][1]}), p50 {d['p50_median']} ms (goal p99 <= 200)"
    )
    if args.server:
        say(f"people's rooms alone and beside 20 rooms of bots ({args.repeat} runs each):")
        results["beside_people"] = beside_people(args.repeat, args.rooms, args.rate, args.pace, say)
        b = results["beside_people"]
        say(
            f"people's p99: {b['median_alone_ms']} ms alone, {b['median_with_bots_ms']} ms "
            f"beside bots ({b['moved_pct']:+} %, goal < 10 %)"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    say(f"results: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
