"""The streams a program lives on, over real HTTP with a real RQ worker playing the server's
bots: the player's events (SSE and NDJSON, resumed by Last-Event-ID on another server process)
and one game's views; at most a few open per player."""
import json
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from jsonschema import Draft202012Validator

from api.storage import keys

# On the cluster too: the event streams and their wake-ups.
pytestmark = pytest.mark.cluster

READ_TIMEOUT = 60
# A bot that opens four streams, says so, and waits to be killed.
CRASHING_BOT = """
import sys, time, httpx
url, token = sys.argv[1:]
clients = [httpx.Client(timeout=30) for _ in range(4)]
answers = [client.send(client.build_request("GET", url, headers={"Authorization": token}),
                       stream=True) for client in clients]
print(*(answer.status_code for answer in answers), flush=True)
time.sleep(600)
"""


class Stream:
    """One open stream, read by a thread: `next()` gives the next event (or fails the test)."""

    def __init__(self, url: str, headers: dict, ndjson: bool = False):
        self.events: queue.Queue = queue.Queue()
        accept = "application/x-ndjson" if ndjson else "text/event-stream"
        self.client = httpx.Client(timeout=httpx.Timeout(10, read=READ_TIMEOUT))
        self.response = self.client.send(
            self.client.build_request("GET", url, headers={**headers, "Accept": accept}),
            stream=True)
        self.ndjson = ndjson
        if self.response.status_code == 200:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            fields: dict = {}
            for line in self.response.iter_lines():
                if self.ndjson:
                    self.events.put(json.loads(line))
                elif line == "" and "data" in fields:
                    self.events.put({**json.loads(fields["data"]), "_sse": fields})
                    fields = {}
                elif line and not line.startswith(":"):
                    name, _, value = line.partition(": ")
                    fields[name] = value
        except (httpx.HTTPError, RuntimeError):
            pass

    def next(self, timeout: float = 30) -> dict:
        return self.events.get(timeout=timeout)

    def until(self, wanted, timeout: float = 60) -> list[dict]:
        """Events up to and with the first one `wanted` accepts."""
        seen, ends = [], time.monotonic() + timeout
        while True:
            event = self.next(max(0.1, ends - time.monotonic()))
            seen.append(event)
            if wanted(event):
                return seen

    def close(self) -> None:
        self.response.close()
        self.client.close()


@pytest.fixture
def streams():
    opened = []

    def open_stream(url, headers, ndjson=False) -> Stream:
        opened.append(Stream(url, headers, ndjson))
        return opened[-1]
    yield open_stream
    for stream in opened:
        stream.close()


def register(base: str, name: str) -> dict:
    token = httpx.post(f"{base}/api/v1/players", json={"name": name}).json()["token"]
    return {"Authorization": f"Bearer {token}"}


def create(base: str, headers: dict, seats: list, public: bool = False, **options) -> dict:
    answer = httpx.post(f"{base}/api/v1/games", headers=headers, json={
        "type": "sixnimmt", "players": len(seats), "seats": seats, "options": options,
        "public": public})
    assert answer.status_code == 201, answer.text
    return answer.json()


def test_a_bot_follows_a_game_against_server_bots_to_its_end(live_server, streams):
    anna = register(live_server, "Anna")
    events = streams(f"{live_server}/api/v1/stream", anna)
    game = create(live_server, anna, ["human", {"bot": "easy"}, {"bot": "easy"}], threshold=8)
    url = f"{live_server}/api/v1/games/{game['id']}"
    spec = httpx.get(f"{live_server}/api/openapi.json").json()
    typed = Draft202012Validator({"$ref": "#/components/schemas/StreamEvent",
                                  "components": spec["components"]})
    told, statuses = [], []
    while True:
        event = events.next(60)
        told.append(event["type"])
        typed.validate({key: value for key, value in event.items() if key != "_sse"})
        if event["type"] == "your_turn":
            view = httpx.get(url, headers=anna).json()
            assert view["version"] >= event["version"] and view["legal_actions"]
            acted = httpx.post(f"{url}/actions", headers=anna, json={
                "action": view["legal_actions"][0], "version": event["version"]})
            statuses.append(acted.status_code)
        if event["type"] == "game_finished":
            break
    assert told[0] == "game_started" and told.count("your_turn") >= 3
    assert set(statuses) == {200}, statuses  # not one 409: the event's version still holds
    assert event["game"] == game["id"] and event["outcome"]["scores"]
    outcome = spec["components"]["schemas"]["StreamGameFinished"]["properties"]["outcome"]
    assert outcome["$ref"].endswith("/GameOutcome")  # typed per game, not a bare object
    assert event["your_place"] >= 1
    assert int(event["id"]) > 0 and event["_sse"]["id"] == event["id"]


def test_ndjson_when_asked_for(live_server, streams):
    anna = register(live_server, "Anna")
    game = create(live_server, anna, ["human", {"bot": "easy"}], threshold=8)
    events = streams(f"{live_server}/api/v1/stream", anna, ndjson=True)
    assert events.response.headers["Content-Type"] == "application/x-ndjson"
    started = events.next()
    assert (started["type"], started["game"], started["seat"]) == ("game_started", game["id"], 0)
    turn = events.until(lambda event: event["type"] == "your_turn")[-1]
    assert turn["game"] == game["id"] and turn["type"] == "your_turn"


def test_last_event_id_resumes_on_another_server_without_a_gap(serve, streams):
    first = serve()
    anna, bert = register(first, "Anna"), register(first, "Bert")
    game = create(first, anna, ["human", "human"], public=True, threshold=8)
    joined = httpx.post(f"{first}/api/v1/games/{game['id']}/join", headers=bert, json={})
    assert joined.status_code == 200
    events = streams(f"{first}/api/v1/stream", anna)
    started = events.until(lambda event: event["type"] == "game_started")[-1]
    events.close()
    url = f"{first}/api/v1/games/{game['id']}"
    assert httpx.post(f"{url}/chat", headers=bert, json={"text": "bye"}).status_code == 201
    assert httpx.post(f"{url}/resign", headers=bert, json={}).status_code == 200

    second = serve()  # another process's server: nothing of the first stream is kept in it
    resumed = streams(f"{second}/api/v1/stream", {**anna, "Last-Event-ID": started["id"]})
    missed = resumed.until(lambda event: event["type"] == "game_finished")
    said = [event for event in missed if event["type"] == "chat"]
    assert [(event["game"], event["text"], event["seat"]) for event in said] == \
        [(game["id"], "bye", 1)]
    assert missed[-1]["game"] == game["id"] and missed[-1]["your_place"] == 1

    afresh = streams(f"{second}/api/v1/stream", anna)  # no id: only what goes on now
    time.sleep(1)
    assert afresh.events.empty()


def test_chat_said_while_streaming_is_told_once(live_server, streams):
    anna, bert = register(live_server, "Anna"), register(live_server, "Bert")
    game = create(live_server, anna, ["human", "human"], public=True, threshold=8)
    httpx.post(f"{live_server}/api/v1/games/{game['id']}/join", headers=bert, json={})
    events = streams(f"{live_server}/api/v1/stream", anna)
    events.until(lambda event: event["type"] == "game_started")
    for text in ("hello", "again"):
        httpx.post(f"{live_server}/api/v1/games/{game['id']}/chat", headers=bert,
                   json={"text": text})
    said = [event for event in events.until(lambda event: event.get("text") == "again")
            if event["type"] == "chat"]
    assert [event["text"] for event in said] == ["hello", "again"]


def test_a_game_stream_shows_the_seats_own_view_only(live_server, streams):
    anna, bert = register(live_server, "Anna"), register(live_server, "Bert")
    game = create(live_server, anna, ["human", "human"], public=True, threshold=8)
    url = f"{live_server}/api/v1/games/{game['id']}"
    httpx.post(f"{url}/join", headers=bert, json={})
    watched = streams(f"{url}/stream", anna)
    first = watched.next()
    annas, berts = httpx.get(url, headers=anna), httpx.get(url, headers=bert)
    assert first["type"] == "view" and first["etag"] == annas.headers["ETag"].strip('"')
    assert first["view"] == annas.json() and first["view"]["your_seat"] == 0
    assert not set(first["view"]["hand"]) & set(berts.json()["hand"])
    chosen = annas.json()["legal_actions"][0]
    httpx.post(f"{url}/actions", headers=anna, json={"action": chosen})
    moved = watched.next()
    assert moved["view"] == httpx.get(url, headers=anna).json()
    assert not set(moved["view"]["hand"]) & set(httpx.get(url, headers=bert).json()["hand"])
    httpx.post(f"{url}/resign", headers=bert, json={})
    last = watched.until(lambda event: event["view"]["status"] == "finished")[-1]
    assert last["view"]["your_seat"] == 0
    with pytest.raises(queue.Empty):
        watched.next(1)  # the stream ended with the finished game


def test_a_private_game_stream_is_refused_to_others(live_server, streams):
    anna, cleo = register(live_server, "Anna"), register(live_server, "Cleo")
    game = create(live_server, anna, ["human", {"bot": "easy"}])
    refused = streams(f"{live_server}/api/v1/games/{game['id']}/stream", cleo)
    assert refused.response.status_code == 403
    missing = streams(f"{live_server}/api/v1/games/nope/stream", anna)
    assert missing.response.status_code == 404


def test_a_player_holds_at_most_four_streams(serve, streams):
    base = serve({"STREAM_HEARTBEAT": 1})
    anna = register(base, "Anna")
    held = [streams(f"{base}/api/v1/stream", anna) for _ in range(4)]
    assert [stream.response.status_code for stream in held] == [200] * 4
    refused = streams(f"{base}/api/v1/stream", anna)
    assert refused.response.status_code == 429
    assert refused.response.headers["Retry-After"] == "1"
    refused.response.read()
    assert refused.response.json()["reason"] == "rate_limited"
    assert held[0].next(5)["type"] == "heartbeat"
    held[0].close()  # its slot goes at the next heartbeat, when the server finds it closed
    # A heartbeat a second; a busy machine may take a few to write one.
    deadline = time.monotonic() + 10
    while (again := streams(f"{base}/api/v1/stream", anna)).response.status_code == 429:
        assert time.monotonic() < deadline, "the closed stream's slot was not freed"
        again.close()
        time.sleep(0.5)
    assert again.response.status_code == 200


def test_a_stream_slot_outlives_its_last_renewal_as_long_as_the_docs_say(serve, streams, redis):
    """What the docs promise of a process that died holding a stream: its slot lapses by
    itself within the time they give, which is the slot's lease at the default heartbeat."""
    base = serve()
    anna = register(base, "Anna")
    me = httpx.get(f"{base}/api/v1/players/me", headers=anna).json()
    stream = streams(f"{base}/api/v1/stream", anna)
    assert stream.response.status_code == 200
    [(_, lapses)] = redis.zrange(keys.streams(f"player:{me['id']}"), 0, -1, withscores=True)
    lease = lapses - redis.time()[0]
    docs = (Path(__file__).parents[2] / "docs" / "api.md").read_text()
    promised = re.search(r"one whose process died within (\d+) s", " ".join(docs.split()))
    assert promised, "the docs give the time in seconds"
    assert lease <= int(promised.group(1)) <= lease + 1


def test_a_stream_needs_a_token(live_server):
    answer = httpx.get(f"{live_server}/api/v1/stream")
    assert answer.status_code == 401 and answer.json()["reason"]


def test_an_ndjson_stream_answers_at_once_with_nothing_to_tell(live_server, streams):
    anna = register(live_server, "Anna")  # no games: the first event is the heartbeat, 20 s on
    asked = time.monotonic()
    events = streams(f"{live_server}/api/v1/stream", anna, ndjson=True)
    assert events.response.status_code == 200 and time.monotonic() - asked < 5


def test_a_crashed_bots_streams_free_their_slots_at_once(live_server, streams):
    """At the default heartbeat (20 s): a bot killed with its streams open that restarts a
    moment later finds its slots free, not 429."""
    anna = register(live_server, "Anna")
    bot = subprocess.Popen([sys.executable, "-c", CRASHING_BOT, f"{live_server}/api/v1/stream",
                            anna["Authorization"]], stdout=subprocess.PIPE, text=True)
    try:
        assert bot.stdout.readline().split() == ["200"] * 4
    finally:
        bot.kill()
        bot.wait()
    time.sleep(2)
    restarted = [streams(f"{live_server}/api/v1/stream", anna) for _ in range(4)]
    assert [stream.response.status_code for stream in restarted] == [200] * 4


@pytest.mark.parametrize("sent", ["abc", "-5", "1.5", "1" * 17, "12 34"])
def test_a_last_event_id_no_stream_gave_is_400(live_server, sent):
    anna = register(live_server, "Anna")
    answer = httpx.get(f"{live_server}/api/v1/stream", headers={**anna, "Last-Event-ID": sent})
    assert answer.status_code == 400, answer.text
    assert answer.json()["reason"] == "invalid_header" and "Last-Event-ID" in answer.json()[
        "message"]
