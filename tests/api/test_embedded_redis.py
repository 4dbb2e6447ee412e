"""The embedded Valkey that `make run` starts when no Redis answers."""
from redis import Redis

from api.devtools.embedded_redis import answers, resolve, start_embedded


def test_embedded_server_keeps_an_append_only_file_across_restarts(tmp_path):
    server = start_embedded(tmp_path)
    try:
        connection = Redis(host=server.host, port=server.port)
        assert connection.config_get("appendonly") == {"appendonly": "yes"}
        assert connection.config_get("save") == {"save": ""}, "no RDB snapshots beside the AOF"
        connection.set("kept", "yes")
    finally:
        server.stop()
    again = start_embedded(tmp_path, port=server.port)
    try:
        assert Redis(host=again.host, port=again.port).get("kept") == b"yes"
    finally:
        again.stop()


def test_redis_url_wins_and_nothing_is_started(monkeypatch, tmp_path, redis_url):
    monkeypatch.setenv("REDIS_URL", redis_url)
    assert resolve(tmp_path) == (redis_url, None)
    assert answers(redis_url)
    assert not answers("redis://127.0.0.1:1/0")
