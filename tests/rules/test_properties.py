"""Properties over random sequences of actions, played by random seats."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules import actions as act
from app.rules.engine import apply
from app.rules.errors import RuleError
from app.rules.state import LANGUAGES
from app.rules.views import WATCHER, view

from .support import CLUES, DECK, lobby, resolving

SEATS = st.integers(min_value=-1, max_value=6)


@st.composite
def an_action(draw, pool):
    card = draw(st.sampled_from([*pool, "bogus"]))
    spot = draw(st.integers(-1, 4))
    kind = draw(
        st.sampled_from(
            [
                "place",
                "place",
                "place",
                "remove",
                "rotate",
                "agree",
                "unagree",
                "lock",
                "next",
                "presence",
                "say",
                "leave",
                "drop",
            ]
        )
    )
    match kind:
        case "place":
            return act.Place(card, spot, draw(st.integers(-1, 4)))
        case "remove":
            return act.Remove(spot)
        case "rotate":
            return act.Rotate(spot, draw(st.sampled_from([1, -1, 2])))
        case "agree":
            return act.Agree()
        case "unagree":
            return act.Unagree()
        case "lock":
            return act.Lock()
        case "next":
            return act.Next()
        case "presence":
            return act.Presence(frozenset(draw(st.sets(st.integers(0, 5)))))
        case "leave":
            return act.Leave()
        case "drop":
            return act.Drop(draw(SEATS))
        case _:
            return act.Say(draw(st.text(max_size=5)), "t")


def check_invariants(room, locked_before):
    n = len(room.players)
    assert all(0 <= r.score <= 6 for r in room.results)
    assert 0 <= room.total() <= 6 * room.clovers_played() <= 6 * n
    assert all(not room.clovers[r.spectator].dropped for r in room.results)
    assert sum(not p.out for p in room.players) >= 2, "a game left with fewer than two"
    res = room.resolution
    if res is None:
        return {}
    clover = room.current_clover()
    ids = {c.id for c in clover.all_cards()}
    placed = [slot.card for slot in res.board if slot is not None]
    assert len(placed) == len(set(placed)), "a card on two spots"
    guesser_view = view(room, (room.spectator() + 1) % n)["resolution"]
    pool = [p["card"] for p in guesser_view["pool"]]
    assert set(pool).isdisjoint(placed)
    assert sorted(pool + placed) == sorted(ids), "pool + board is not the clover's cards"
    locked = {s: slot for s, slot in enumerate(res.board) if slot is not None and slot.locked}
    for spot, slot in locked_before.get(res.turn, {}).items():
        assert locked.get(spot) == slot, "a locked card moved"
    for seat in range(n):
        # Seats share a view's common part (views.audience): never the Spectator's truth.
        knows = view(room, seat)["resolution"]["solution"] is not None
        assert knows == (res.checked or seat == room.spectator()), "the truth told wrong"
    if not res.checked:
        assert guesser_view["solution"] is None and guesser_view["decoys"] is None
        text = json.dumps(view(room, None))
        assert '"solution": null' in text and '"decoys": null' in text
    return {res.turn: locked}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 6), st.integers(0, 2**32), st.integers(1, 4), st.data())
def test_random_play_keeps_every_invariant(players, seed, decoys, data):
    room = resolving(players, seed=seed, decoys=decoys)
    locked: dict[int, dict] = {}
    for _ in range(data.draw(st.integers(10, 80))):
        if room.phase != "resolution":
            break
        seat = data.draw(st.integers(0, players - 1))
        action = data.draw(an_action(room.current_clover().pool_order))
        try:
            new = apply(room, seat if not isinstance(action, act.Presence) else None, action)
        except RuleError:
            continue
        assert new.seq == room.seq + 1
        room = new
        locked = check_invariants(room, locked) if room.resolution else locked


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 6), st.integers(0, 2**32), st.data())
def test_guided_play_always_finishes_with_a_score_in_range(players, seed, data):
    """Guessers who always fill the board and lock in reach the end of every game."""
    room = resolving(players, seed=seed)
    while room.phase == "resolution":
        res = room.resolution
        holder = room.lock_holder()
        if res.checked:
            room = apply(room, holder, act.Next())
            continue
        free = [s for s, slot in enumerate(res.board) if slot is None]
        pool = [p["card"] for p in view(room, holder)["resolution"]["pool"]]
        for spot in free:
            card = data.draw(st.sampled_from(pool))
            pool.remove(card)
            room = apply(room, holder, act.Place(card, spot, data.draw(st.integers(0, 3))))
        room = apply(room, holder, act.Lock())
    assert room.phase == "finished"
    assert len(room.results) == players
    assert 0 <= room.total() <= 6 * players


# --- what a seat may do, as the views tell it ------------------------------------------------

PROBES = {
    "sit": act.Sit(),
    "watchers_chat": act.WatchersChat(on=False),
    "settings": act.Settings(2),
    "add_bot": act.AddBot(),
    "claims_by": act.ClaimsBy("host"),
    "language": act.Language("fr"),
    "start": act.Start(1),
    "leave": act.Leave(),
    "write": act.Clues((None, None, None, None)),
    "done": act.Done(),
    "undone": act.Undone(),
    "move": act.Unagree(),  # needs nothing but the right to move cards
    "agree": act.Agree(),
    "unagree": act.Unagree(),
    "lock": act.Lock(),
    "next": act.Next(),
    "say": act.Say("hello", "t"),
    "again": act.Again(),
    "invite": act.Invite(),
    "timer": act.Timer("clues", "advisory", 3),
    "pause": act.Pause(),
    "resume": act.Resume(),
}


def accepts(room, seat, action, watcher=None) -> bool:
    try:
        apply(room, seat, action, deck=DECK, watcher=watcher)
    except RuleError:
        return False
    return True


def assert_a_watcher_may_do_what_the_engine_accepts(room):
    """A watcher's answers, the same for every watcher, hold for each of them."""
    room = apply(room, None, act.Watch("Zed"))
    can = view(room, WATCHER, bot_languages=LANGUAGES)["can"]
    for watcher in room.watchers:
        for name, probe in PROBES.items():
            assert can[name] == accepts(room, None, probe, watcher.pid), (name, room.phase)
    assert not can["join"] and not can["watch"] and not can["claim"]


def assert_allowed_matches_the_engine(room):
    for seat in [*range(len(room.players)), None]:
        # Bots offered in every language: what the engine alone decides is compared.
        can = view(room, seat, bot_languages=LANGUAGES)["can"]
        assert set(can) == {
            *PROBES,
            *("kick", "drop", "stand_in", "allow", "refuse", "join", "claim", "watch"),
            "send_away",
        }
        assert can["join"] == (seat is None and accepts(room, None, act.Join("Zed")))
        assert can["watch"] == (seat is None and accepts(room, None, act.Watch("Zed")))
        assert can["claim"] == (
            seat is None
            and any(accepts(room, None, act.Claim(s, "new", "t")) for s in range(len(room.players)))
        )
        answerable = [
            c.id for c in room.claims if seat is not None and accepts(room, seat, act.Allow(c.id))
        ]
        assert can["allow"] == answerable, (seat, room.phase)
        refusable = [
            c.id for c in room.claims if seat is not None and accepts(room, seat, act.Refuse(c.id))
        ]
        assert can["refuse"] == refusable, (seat, room.phase)
        for name, probe in PROBES.items():
            if seat is None:
                assert can[name] is False
                continue
            assert can[name] == accepts(room, seat, probe), (name, seat, room.phase)
        kickable = [
            s for s in range(-1, 7) if seat is not None and accepts(room, seat, act.Kick(s))
        ]
        assert can["kick"] == kickable, (seat, room.phase)
        droppable = [
            s for s in range(-1, 7) if seat is not None and accepts(room, seat, act.Drop(s))
        ]
        assert can["drop"] == droppable, (seat, room.phase)
        standing_in = [
            s for s in range(-1, 7) if seat is not None and accepts(room, seat, act.StandIn(s))
        ]
        assert can["stand_in"] == standing_in, (seat, room.phase)
        ids = [-1, *(w.pid for w in room.watchers), room.next_pid]
        sendable = [i for i in ids if seat is not None and accepts(room, seat, act.SendAway(i))]
        assert can["send_away"] == sendable, (seat, room.phase)
    if not room.practice:  # nobody watches a practice table (tests/rules/test_practice.py)
        assert_a_watcher_may_do_what_the_engine_accepts(room)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 6), st.integers(0, 2**32), st.data())
def test_what_a_seat_may_do_is_exactly_what_the_engine_accepts(players, seed, data):
    room = lobby(players)
    room = apply(room, None, act.Presence(frozenset(data.draw(st.sets(st.integers(0, 5))))))
    assert_allowed_matches_the_engine(room)
    # The host seats bots in the free seats, or some of them.
    for _ in range(data.draw(st.integers(0, 6 - players))):
        if accepts(room, room.acting_host(), act.AddBot()):
            room = apply(room, room.acting_host(), act.AddBot())
    assert_allowed_matches_the_engine(room)
    # Devices ask for seats; some answers may come only from the host.
    for n in range(data.draw(st.integers(0, 7))):
        claim = act.Claim(data.draw(st.integers(0, players - 1)), f"c{n}", "t")
        if accepts(room, None, claim):
            room = apply(room, None, claim)
    if data.draw(st.booleans()):
        room = apply(room, room.acting_host(), act.ClaimsBy("host"))
    if data.draw(st.booleans()):  # a table with a clock may pause it
        mode = data.draw(st.sampled_from(["advisory", "enforced"]))
        room = apply(room, room.acting_host(), act.Timer("clues", mode, 2))
    assert_allowed_matches_the_engine(room)
    room = apply(room, room.acting_host(), act.Start(seed), deck=DECK)
    if room.timed() and data.draw(st.booleans()):
        room = apply(room, room.acting_host(), act.Pause())
    assert_allowed_matches_the_engine(room)
    for seat in range(players):
        if data.draw(st.booleans()):
            room = apply(room, seat, act.Clues(CLUES))
            if data.draw(st.booleans()):
                room = apply(room, seat, act.Done())
    assert_allowed_matches_the_engine(room)
    # Someone leaves, someone away is taken out: what each may do still matches.
    for _ in range(data.draw(st.integers(0, 3))):
        seat = data.draw(st.integers(0, players - 1))
        away = frozenset(data.draw(st.sets(st.integers(0, players - 1))))
        room = apply(room, None, act.Presence(frozenset(range(players)) - away))
        move = data.draw(
            st.sampled_from(
                [act.Leave(), act.Drop(data.draw(SEATS)), act.StandIn(data.draw(SEATS))]
            )
        )
        if accepts(room, seat, move):
            room = apply(room, seat, move, deck=DECK)
        assert_allowed_matches_the_engine(room)
    room = resolving(players, seed=seed, present=data.draw(st.booleans()))
    # Seats asked for in resolution, the Spectator's among them; some move, and are asked
    # back from the devices they moved from.
    room = ask_and_move(room, players, data)
    for _ in range(data.draw(st.integers(0, 40))):
        assert_allowed_matches_the_engine(room)
        if room.phase != "resolution":
            break
        seat = data.draw(st.integers(0, players - 1))
        action = data.draw(an_action(room.current_clover().pool_order))
        try:
            room = apply(room, seat if not isinstance(action, act.Presence) else None, action)
        except RuleError:
            continue
    assert_allowed_matches_the_engine(room)


def ask_and_move(room, players, data):
    """Claims for random seats, some allowed by whoever may, then some asked back."""
    for n in range(data.draw(st.integers(0, 4))):
        claim = act.Claim(data.draw(st.integers(0, players - 1)), f"r{n}", "t")
        if accepts(room, None, claim):
            room = apply(room, None, claim)
    for claim in room.claims:
        seat = data.draw(st.integers(0, players - 1))
        if data.draw(st.booleans()) and accepts(room, seat, act.Allow(claim.id)):
            room = apply(room, seat, act.Allow(claim.id))
    assert_allowed_matches_the_engine(room)
    for n in range(data.draw(st.integers(0, 3))):
        back = act.Claim(data.draw(st.integers(0, players - 1)), f"b{n}", "t", back=True)
        if accepts(room, None, back):
            room = apply(room, None, back)
    return room
