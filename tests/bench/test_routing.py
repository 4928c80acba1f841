"""The benchmark's room-by-room routing: with several servers, every request of a room
goes to one of them, as a proxy hashing the room code sends it."""

from __future__ import annotations

from bench.loadgen import LoadGen


def test_each_room_is_played_on_one_server_and_both_get_rooms() -> None:
    one, other = LoadGen("http://a,http://b", "app", 1), LoadGen("http://a,http://b", "app", 2)
    codes = [f"R{n:04d}" for n in range(200)]
    assert [one.at(code) for code in codes] == [other.at(code) for code in codes]
    served = [one.at(code) for code in codes]
    assert 70 < served.count("http://a") < 130 and set(served) == {"http://a", "http://b"}
    assert LoadGen("http://a", "app", 1).at("R0001") == "http://a"
