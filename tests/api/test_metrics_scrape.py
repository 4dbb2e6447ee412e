"""`/metrics` on the operator's terms: closed beyond loopback without a token, one body a
second however many scrape, a budget, and a folder that keeps no dead process's files."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
from prometheus_client.parser import text_string_to_metric_families

from api.devtools.embedded_cluster import free_port
from api.http import create_app
from api.metrics_folder import merge_dead


def totals(text: str, name: str) -> float:
    return sum(sample.value for family in text_string_to_metric_families(text)
               for sample in family.samples if sample.name == name)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.7", "poyta.example"])
def test_beyond_loopback_without_a_token_the_metrics_are_closed(host, store_env, monkeypatch):
    monkeypatch.setenv("HOST", host)
    client = create_app({**store_env, "TESTING": True}).test_client()
    refused = client.get("/metrics")
    assert refused.status_code == 401 and refused.headers["WWW-Authenticate"] == "Bearer"
    body = refused.get_json()
    assert set(body) >= {"code", "status", "message"} and body["code"] == 401
    assert "POYTA_METRICS_TOKEN" in body["message"] and b"poyta_" not in refused.data


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.0.2"])
def test_on_loopback_the_metrics_are_open(host, store_env, monkeypatch):
    monkeypatch.setenv("HOST", host)
    client = create_app({**store_env, "TESTING": True}).test_client()
    assert b"poyta_http_request_duration_seconds" in client.get("/metrics").data


def test_beyond_loopback_the_token_opens_them(store_env, monkeypatch):
    monkeypatch.setenv("HOST", "0.0.0.0")
    monkeypatch.setenv("POYTA_METRICS_TOKEN", "scrape-secret")
    client = create_app({**store_env, "TESTING": True}).test_client()
    assert client.get("/metrics").status_code == 401
    scraped = client.get("/metrics", headers={"Authorization": "Bearer scrape-secret"})
    assert scraped.status_code == 200


def test_scrapes_within_a_second_share_one_body(app):
    client = app.test_client()
    scrapes = app.extensions["poyta_scrapes"]
    made = scrapes.made_count
    bodies = {client.get("/metrics").data for _ in range(4)}
    assert len(bodies) == 1 and scrapes.made_count == made + 1


def test_scrapes_have_a_budget(redis, store_env):  # `redis`: the counters start at 0
    client = create_app({**store_env, "TESTING": True,
                         "RATE_LIMITS": {"scrape_metrics": "3/minute"}}).test_client()
    for _ in range(3):
        assert client.get("/metrics").status_code == 200
    refused = client.get("/metrics")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert refused.get_json()["code"] == 429


def test_the_metrics_answer_while_the_budgets_counters_do_not(store_env):
    no_queue = {**store_env, "RQ_REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"}
    client = create_app({**no_queue, "TESTING": True}).test_client()
    assert client.get("/metrics").status_code == 200


RECORD = textwrap.dedent("""
    from prometheus_client import Counter, Gauge, Histogram
    Counter("bench_things", "", ["kind"]).labels("a").inc({count})
    Histogram("bench_seconds", "", buckets=(1, 2)).observe(0.5)
    Gauge("bench_held", "", multiprocess_mode="livesum").inc()
""")


def test_a_dead_process_files_are_folded_into_the_archive_with_the_same_sums(tmp_path):
    for count in (2, 5):
        subprocess.run([sys.executable, "-c", RECORD.format(count=count)], check=True,
                       env={**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)})
    from prometheus_client import CollectorRegistry, generate_latest, multiprocess

    def exposition() -> str:
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=str(tmp_path))
        return generate_latest(registry).decode()
    before = exposition()
    assert len(list(tmp_path.glob("*.db"))) == 6
    assert merge_dead(str(tmp_path)) == 6
    assert sorted(path.name for path in tmp_path.glob("*.db")) == [
        "counter_archive.db", "histogram_archive.db"]
    after = exposition()
    assert totals(after, "bench_things_total") == totals(before, "bench_things_total") == 7
    assert totals(after, "bench_seconds_count") == 2
    assert totals(after, "bench_held") == 0
    assert merge_dead(str(tmp_path)) == 0


def test_a_live_process_files_stay(tmp_path):
    (tmp_path / f"counter_{os.getpid()}.db").write_bytes(b"")
    assert merge_dead(str(tmp_path)) == 0
    assert (tmp_path / f"counter_{os.getpid()}.db").exists()


def test_processes_sharing_a_metrics_folder_share_a_second_old_body(store_env, tmp_path,
                                                                     monkeypatch):
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    apps = [create_app({**store_env, "TESTING": True}) for _ in range(2)]
    bodies = [app.test_client().get("/metrics").data for app in apps * 2]
    assert len(set(bodies)) == 1
    assert [app.extensions["poyta_scrapes"].made_count for app in apps] == [1, 0]
