"""`GET /events?after=N&limit=L` reads the events and their count at one instant: a reader that
goes on from the `last` it was given never skips an event, however writers interleave and
however small its pages, and goes on the same across the commit that finishes the game and
packs its log."""
import json
import secrets
import threading

import pytest
from hypothesis import given, settings, strategies as st

from api.storage import connections
from api.storage.games import Commit, GameStore

# On the cluster too: a log and its count read at one instant; the finishing commit packs the log.
pytestmark = pytest.mark.cluster


def writer(store: GameStore, game_id: str, name: str, batches: list[int]) -> None:
    for number, size in enumerate(batches):
        events = [json.dumps({"type": "step", "writer": name, "batch": number, "index": i})
                  for i in range(size)]
        while True:  # compare-and-set, as every change does
            version = store.head(game_id, None).version
            if store.commit(Commit(game_id, version, {}, events)):
                break


def finisher(store: GameStore, game_id: str, writers: list[threading.Thread], last: int) -> None:
    """Once the writers are done, the game's last change: it finishes and packs the log."""
    for thread in writers:
        thread.join()
    events = [json.dumps({"type": "step", "writer": "end", "batch": 0, "index": i})
              for i in range(last)]
    version = store.head(game_id, None).version
    assert store.commit(Commit(game_id, version, {"status": "finished"}, events,
                               finishes=True))


def read(store: GameStore, game_id: str, after: int, limit: int) -> tuple[list[dict], int]:
    """A page of events after `after` and the number it reaches, as `History.events` reads."""
    found = store.events(game_id, None, after, limit)
    if found.finished:
        every = found.log.events
        page = every[after:after + limit]
        return page, after + len(page) if after + len(page) < len(every) else len(every)
    return found.events, (after + len(found.events) if after + len(found.events) < found.count
                          else found.count)


@settings(max_examples=8, deadline=None)
@given(st.lists(st.lists(st.integers(1, 4), min_size=1, max_size=25), min_size=2, max_size=3),
       st.integers(1, 4), st.integers(1, 6))
def test_a_reader_collects_every_event_once_in_order_while_writers_append_and_the_finish_packs(
        store_env, work, last, limit):
    store = GameStore(connections.store_client(store_env), 86400)
    game_id = secrets.token_hex(8)
    store.redis.hset(f"game:{{{game_id}}}", mapping={"version": 1, "status": "active",
                                                     "public": "1", "meta": '{"type": "sixnimmt"}'})
    threads = [threading.Thread(target=writer, args=(store, game_id, f"w{index}", batches))
               for index, batches in enumerate(work)]
    ending = threading.Thread(target=finisher, args=(store, game_id, threads, last))
    for thread in [*threads, ending]:
        thread.start()
    total = sum(map(sum, work)) + last
    collected, count = [], 0
    while ending.is_alive() or count < total:
        events, count = read(store, game_id, count, limit)
        collected += events
    ending.join()
    assert store.redis.hget(f"game:{{{game_id}}}", "log"), "the log was packed"
    assert len(collected) == total
    assert collected == store.events(game_id, None, 0, limit).log.events, "as the log tells it"
    for name, batches in [*((f"w{index}", b) for index, b in enumerate(work)), ("end", [last])]:
        mine = [(e["batch"], e["index"]) for e in collected if e["writer"] == name]
        assert mine == [(number, i) for number, size in enumerate(batches) for i in range(size)]
