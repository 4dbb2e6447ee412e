"""`GET /events?after=N` reads the events and their count at one instant: a reader that goes
on from the `last` it was given never skips an event, however writers interleave."""
import json
import secrets
import threading

from hypothesis import given, settings, strategies as st

from api import connections
from api.store import Commit, Store


def writer(store: Store, game_id: str, name: str, batches: list[int]) -> None:
    for number, size in enumerate(batches):
        events = [json.dumps({"type": "step", "writer": name, "batch": number, "index": i})
                  for i in range(size)]
        while True:  # compare-and-set, as every change does
            version = store.head(game_id, None)[0]
            if store.commit(Commit(game_id, version, {}, None, None, False, events, [])):
                break


@settings(max_examples=8, deadline=None)
@given(st.lists(st.lists(st.integers(1, 4), min_size=1, max_size=25), min_size=2, max_size=3))
def test_a_reader_collects_every_event_once_in_order_while_writers_append(store_env, work):
    store = Store(connections.store_client(store_env))
    game_id = secrets.token_hex(8)
    store.redis.hset(f"game:{{{game_id}}}", mapping={"version": 1, "status": "active",
                                                     "public": "1", "meta": '{"type": "sixnimmt"}'})
    threads = [threading.Thread(target=writer, args=(store, game_id, f"w{index}", batches))
               for index, batches in enumerate(work)]
    for thread in threads:
        thread.start()
    collected, last = [], 0
    while any(thread.is_alive() for thread in threads) or last < sum(map(sum, work)):
        _, _, _, events, count, _ = store.events(game_id, None, last)
        collected += events
        last = count
    for thread in threads:
        thread.join()
    assert len(collected) == sum(map(sum, work))
    assert collected == [json.loads(raw) for raw in
                         store.redis.lrange(f"game:{{{game_id}}}:events", 0, -1)]
    for name, batches in ((f"w{index}", b) for index, b in enumerate(work)):
        mine = [(e["batch"], e["index"]) for e in collected if e["writer"] == name]
        assert mine == [(number, i) for number, size in enumerate(batches) for i in range(size)]
