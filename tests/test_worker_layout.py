"""docker-compose.yml, `make run` and `python -m worker.run` follow one declaration of the worker
processes (`worker.layout`)."""
import sys
from pathlib import Path

import yaml

from api.devtools import serve
from worker import layout, run

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CPU_SHARES = 1024


def compose_workers(profiled: bool) -> dict[str, dict]:
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    return {name: service for name, service in services.items()
            if "worker.run" in service.get("command", [])
            and bool(service.get("profiles")) == profiled}


def test_compose_runs_the_declared_workers_each_once():
    commands = {name: service["command"] for name, service in compose_workers(False).items()}
    assert sorted(map(tuple, commands.values())) == sorted(tuple(worker.argv())
                                                           for worker in layout.WORKERS)


def test_compose_gives_a_niced_worker_a_smaller_cpu_share():
    for name, service in compose_workers(False).items():
        worker = layout.DECLARED[service["command"][-1]]
        shares = service.get("cpu_shares", DEFAULT_CPU_SHARES)
        assert (shares < DEFAULT_CPU_SHARES) == (worker.niceness > 0), name


def test_the_cluster_profile_runs_declared_workers():
    for name, service in compose_workers(True).items():
        assert service["command"][-1] in layout.DECLARED, name
        assert service["command"] == layout.DECLARED[service["command"][-1]].argv(), name


def test_make_run_starts_the_declared_workers(monkeypatch):
    started = []
    monkeypatch.setattr(serve, "supervise", lambda children, stopping: started.extend(children))
    monkeypatch.setattr(serve, "resolve", lambda path: ("redis://127.0.0.1:1/0", None))
    monkeypatch.setattr(serve.signal, "signal", lambda signum, handler: None)
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert serve.main() == 0
    argvs = [child.argv for child in started if child.argv[1:3] == ["-m", "worker.run"]]
    assert argvs == [worker.argv(sys.executable) for worker in layout.WORKERS]


def test_the_worker_takes_its_queues_and_niceness_from_the_layout():
    for worker in layout.DECLARED.values():
        assert run.declared(worker.argv()[3:]) == worker
    assert run.declared(["bots-deep"]).niceness == layout.DEEP.niceness
    assert run.declared(["bots", "bots-heavy"]).queues == layout.QUICK.queues
    assert run.declared(["bots", "bots-heavy"]).niceness == 0
