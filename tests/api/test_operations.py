"""For operators: liveness, readiness with its reasons, Prometheus metrics summed over
gunicorn's processes (also across a crash), JSON logs with a request id."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import psutil
import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from api.http import create_app, metrics
from api.devtools.embedded_cluster import EmbeddedCluster, free_port
from waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]


def dead_url() -> str:
    return f"redis://127.0.0.1:{free_port()}/0"


def samples(text: str) -> dict[tuple, float]:
    """{(sample name, sorted labels): value} from an exposition."""
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def test_alive_and_ready_when_store_queue_and_database_answer(client):
    assert client.get("/healthz").get_json() == {"status": "alive"}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.get_json()["checks"] == {"game store": "ok", "queue": "ok", "database": "ok"}


def test_not_ready_names_what_does_not_answer(redis_url):
    no_queue = create_app({"REDIS_URL": redis_url, "RQ_REDIS_URL": dead_url(), "TESTING": True})
    answer = no_queue.test_client().get("/readyz")
    assert answer.status_code == 503 and answer.headers["Retry-After"]
    body = answer.get_json()
    assert set(body) == {"code", "status", "message", "reason", "errors"} and body["code"] == 503
    assert body["reason"] == "unavailable"
    assert set(body["errors"]) == {"queue"} and "queue" in body["message"]

    no_store = create_app({"REDIS_URL": dead_url(), "RQ_REDIS_URL": redis_url, "TESTING": True})
    client = no_store.test_client()
    assert set(client.get("/readyz").get_json()["errors"]) == {"game store"}
    assert client.get("/healthz").status_code == 200


def test_a_vanished_store_answers_503_in_the_error_shape_and_counts(redis_url, monkeypatch):
    monkeypatch.setattr(metrics, "FRESH_SECONDS", 0)  # each scrape made anew
    client = create_app({"REDIS_URL": dead_url(), "RQ_REDIS_URL": redis_url,
                         "TESTING": True}).test_client()
    before = samples(client.get("/metrics").get_data(as_text=True)).get(
        ("poyta_redis_errors_total", (("where", "request"),)), 0)
    answer = client.post("/api/v1/players", json={"name": "Anna"})
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
    assert set(answer.get_json()) == {"code", "status", "message", "reason"}
    assert answer.get_json()["reason"] == "unavailable"
    after = samples(client.get("/metrics").get_data(as_text=True))
    assert after[("poyta_redis_errors_total", (("where", "request"),))] == before + 1


def test_readiness_follows_a_cluster_node_that_dies_and_comes_back(tmp_path, queue_redis_url):
    with EmbeddedCluster(masters=3, data_dir=tmp_path) as cluster:
        client = create_app({"REDIS_URL": cluster.url, "REDIS_CLUSTER": True,
                             "RQ_REDIS_URL": queue_redis_url, "TESTING": True}).test_client()
        assert client.get("/readyz").status_code == 200
        cluster.kill_node(cluster.ports[1])
        down = client.get("/readyz")
        assert down.status_code == 503 and set(down.get_json()["errors"]) == {"game store"}
        cluster.start_node(cluster.ports[1])
        cluster.wait_ready()
        wait_until(lambda: client.get("/readyz").status_code == 200,
                   "ready again after the node came back", every=0.2)


@pytest.fixture(scope="module")
def gunicorn(redis_url, tmp_path_factory):
    """The API under gunicorn as `make run` serves it (gevent, 2 processes, gunicorn.conf.py)."""
    folder = tmp_path_factory.mktemp("gunicorn")
    port = free_port()
    log = open(folder / "gunicorn.log", "w+")
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "--bind", f"127.0.0.1:{port}",
         "--worker-class", "gevent", "--workers", "2", "api.http:create_app()"],
        cwd=ROOT, stderr=log, env={**os.environ, "REDIS_URL": redis_url,
                                   "PROMETHEUS_MULTIPROC_DIR": str(folder)})
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_alive(base)
        yield server, base, log
    finally:
        server.send_signal(signal.SIGINT)  # quick shutdown: nothing to drain
        server.wait(timeout=20)
        log.close()


def wait_until_alive(base: str) -> None:
    def alive() -> bool:
        try:
            return requests.get(f"{base}/healthz", timeout=5).ok
        except requests.RequestException:
            return False
    wait_until(alive, "gunicorn answering", 30, every=0.1)


def scrape(base: str) -> dict[tuple, float]:
    return samples(requests.get(f"{base}/metrics", timeout=5).text)


def test_metrics_add_up_every_gunicorn_process_even_one_that_crashed(gunicorn):
    server, base, log = gunicorn
    token = requests.post(f"{base}/api/v1/players", json={"name": "Anna"}).json()["token"]
    anna = {"Authorization": f"Bearer {token}"}
    game = requests.post(f"{base}/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}]}).json()
    assert requests.post(f"{base}/api/v1/games/{game['id']}/actions", headers=anna,
                         json={"action": {"type": "play", "card": 105}}).status_code == 422
    inbox_etag = requests.get(f"{base}/api/v1/players/me/games", headers=anna).headers["ETag"]

    def hold() -> None:
        try:
            requests.get(f"{base}/api/v1/players/me/games?wait=20", timeout=30,
                         headers={**anna, "If-None-Match": inbox_etag})
        except requests.ConnectionError:
            pass  # its process was killed
    holders = [threading.Thread(target=hold) for _ in range(3)]
    for holder in holders:
        holder.start()
    types = ("poyta_http_request_duration_seconds_count",
             (("method", "GET"), ("route", "/api/v1/games/types"), ("status", "2xx")))
    held = ("poyta_long_polls_held", ())
    wait_until(lambda: scrape(base)[held] == 3, "3 held long-polls", every=0.1)
    for _ in range(10):  # a fresh connection each: either process may answer
        requests.get(f"{base}/api/v1/games/types")

    killed = psutil.Process(server.pid).children()
    for worker in killed:
        worker.send_signal(signal.SIGKILL)
    for holder in holders:
        holder.join()
    wait_until_alive(base)
    for _ in range(10):
        requests.get(f"{base}/api/v1/games/types")

    # A scrape may show the samples of up to a second ago (`api.http.metrics.FRESH_SECONDS`).
    wait_until(lambda: scrape(base).get(types) == 20, "20 calls counted", seconds=5)
    after = scrape(base)
    left = [path.name for path in Path(log.name).parent.glob("*.db")
            if any(path.name.endswith(f"_{worker.pid}.db") for worker in killed)]
    assert left == []  # the dead processes' samples were folded into the archives
    assert after[types] == 20  # counted by four processes, two of them dead
    assert after[held] == 0  # the dead processes' held requests are gone
    assert after[("poyta_actions_total", (("result", "refused"), ("status", "422")))] == 1
    assert after[("poyta_queue_jobs", (("queue", "bots"), ("state", "queued")))] >= 1


def test_logs_are_json_lines_with_the_request_id_and_no_secret_of_the_url(gunicorn):
    _, base, log = gunicorn
    wait_until_alive(base)
    answer = requests.post(f"{base}/api/v1/games/invites/s3cretInviteCode",
                           headers={"X-Request-Id": "trace-42"})
    assert answer.status_code == 401 and answer.headers["X-Request-Id"] == "trace-42"
    forged = requests.get(f"{base}/healthz", headers={"X-Request-Id": "not an id: <script>"})
    assert forged.headers["X-Request-Id"] != "not an id: <script>"
    log.seek(0)
    text = log.read()
    assert "s3cretInviteCode" not in text
    lines = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    traced = [line for line in lines if line.get("request_id") == "trace-42"]
    assert traced and traced[-1]["route"] == "/api/v1/games/invites/<string:code>"
    assert traced[-1]["status"] == 401 and traced[-1]["level"] == "INFO"
    assert any(line.get("request_id") == forged.headers["X-Request-Id"] for line in lines)


def test_a_poll_answered_before_flask_is_logged_and_counted_as_the_view_would_be(gunicorn):
    _, base, log = gunicorn
    wait_until_alive(base)
    token = requests.post(f"{base}/api/v1/players", json={"name": "Anna"}).json()["token"]
    anna = {"Authorization": f"Bearer {token}"}
    game_id = requests.post(f"{base}/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}]}).json()["id"]
    etag = requests.get(f"{base}/api/v1/games/{game_id}", headers=anna).headers["ETag"]
    polled = requests.get(f"{base}/api/v1/games/{game_id}",
                          headers={**anna, "If-None-Match": etag, "X-Request-Id": "poll-7"})
    assert polled.status_code == 304 and polled.headers["X-Request-Id"] == "poll-7"
    counted = ("poyta_http_request_duration_seconds_count",
               (("method", "GET"), ("route", "/api/v1/games/<string:game_id>"), ("status", "3xx")))
    # A scrape may show the samples of up to a second ago (`api.http.metrics.FRESH_SECONDS`).
    wait_until(lambda: scrape(base).get(counted, 0) >= 1, "the poll counted", seconds=5)
    log.seek(0)
    lines = [json.loads(line) for line in log.read().splitlines() if line.startswith("{")]
    polls = [line for line in lines if line.get("request_id") == "poll-7"]
    assert len(polls) == 1
    assert {key: polls[0][key] for key in ("route", "game", "status", "method", "level")} == {
        "route": "/api/v1/games/<string:game_id>", "game": game_id, "status": 304,
        "method": "GET", "level": "INFO"}
    assert polls[0]["ms"] >= 0


def test_metrics_with_a_token_set_answer_only_the_operator(serve, monkeypatch):
    monkeypatch.setenv("POYTA_METRICS_TOKEN", "scrape-secret")
    base = serve()
    for headers in ({}, {"Authorization": "Bearer guess"}, {"Authorization": "scrape-secret"}):
        refused = requests.get(f"{base}/metrics", headers=headers, timeout=5)
        assert refused.status_code == 401 and refused.json()["code"] == 401
        assert "poyta_" not in refused.text
    scraped = requests.get(f"{base}/metrics", timeout=5,
                           headers={"Authorization": "Bearer scrape-secret"})
    assert scraped.status_code == 200 and "poyta_http_request_duration_seconds" in scraped.text


def test_make_run_prints_an_address_where_passkeys_work():
    from api.devtools.serve import browser_address
    from api.settings import Settings
    for host in ("127.0.0.1", "0.0.0.0", "::", "localhost"):
        assert browser_address(host, "8000") == "http://localhost:8000/"
    assert browser_address("play.poyta.example", "80") == "http://play.poyta.example:80/"
    settings = Settings.from_env({"POYTA_PUBLIC_URL": browser_address("127.0.0.1", "8123").rstrip("/")})
    assert (settings.rp_id, settings.origin) == ("localhost", "http://localhost:8123")
