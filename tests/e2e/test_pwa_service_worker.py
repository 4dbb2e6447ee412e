"""The service worker the server makes from the registry: it precaches the shell and every file of
each registered game's folder (pwa/games/<type>/, or pwa/ in a plug-in game's package), its cache
version is a digest of those files, so a changed file installs a new shell by itself, and a game
without a folder has none served: the app says it cannot show it."""
from __future__ import annotations

import dataclasses
import importlib
import json
import re
import shutil
import threading
from pathlib import Path

from flask import Flask
from phone import call, start, wait_for_control
from playwright import sync_api
from werkzeug.serving import make_server

from api.http import create_app
from api.http.resources.pwa.routes import PWA_DIR, blp
from rules import GAMES
from rules.sixnimmt.game import SixNimmt

WORKER = re.compile(r'^const CACHE_VERSION = "(poyta-shell-[0-9a-f]+)";\nconst SHELL = (\[.*?\]);\n', re.DOTALL)
CACHED = """async (version) => (await (await caches.open(version)).keys()).map((r) => new URL(r.url).pathname)"""


def parse_worker(script: str) -> tuple[str, list[str]]:
    """The cache version and the precache list at the head of a served worker."""
    found = WORKER.match(script)
    assert found, "the worker starts with its version and its list"
    return found.group(1), json.loads(found.group(2))


def served_worker(client) -> tuple[str, list[str]]:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    return parse_worker(answer.get_data(as_text=True))


def wait_for_cache(page, version: str) -> None:
    """Until the phone's only cache is the one of this version (an old one goes on activation)."""
    for _ in range(300):
        if page.evaluate("async () => (await caches.keys()).join()") == version:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the phone never installed {version}")


def folder_urls(folder: Path, name: str) -> set[str]:
    return {f"/games/{name}/{path.relative_to(folder).as_posix()}" for path in folder.rglob("*") if path.is_file()}


def copy_of_the_pwa(tmp_path: Path, leave_out: str | None = None) -> Path:
    """The PWA's files in a folder of the test's own, less one game's folder if asked."""
    copy = tmp_path / "pwa"
    shutil.copytree(PWA_DIR, copy, ignore=lambda folder, names: [name for name in names if name == leave_out])
    return copy


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_same_files_same_worker_and_every_file_counts(store_env, tmp_path):
    copy = copy_of_the_pwa(tmp_path)

    def new_process():
        return create_app({**store_env, "TESTING": True, "PWA_DIR": str(copy)}).test_client()

    running = new_process()
    answer = running.get("/sw.js")
    assert answer.headers["Cache-Control"] == "no-cache"
    assert answer.headers["Service-Worker-Allowed"] == "/"
    assert running.get("/sw.js", headers={"If-None-Match": answer.headers["ETag"]}).status_code == 304
    version, shell = parse_worker(answer.get_data(as_text=True))
    # Every process of one deploy (each gunicorn worker) serves the same worker.
    assert new_process().get("/sw.js").get_data() == answer.get_data()
    for name in GAMES:
        assert folder_urls(copy / "games" / name, name) <= set(shell), name
    assert {"/", "/index.html", "/app.js", "/styles.css", "/vendor/qrcode-generator.js",
            "/icons/icon-192.png"} <= set(shell)
    assert "/sw.js" not in shell and "/games/README.md" not in shell

    edit(copy / "styles.css", "light dark", "light  dark")
    assert served_worker(running)[0] == version, "made once per process, not per request"
    versions = [version, served_worker(new_process())[0]]
    edit(copy / "games" / "sticheln" / "howto.js", "pain colour", "pain color")
    versions.append(served_worker(new_process())[0])
    assert len(set(versions)) == 3, "a change to a shell file and to a game's file each make a new version"


def plug_in(tmp_path: Path, monkeypatch, package: str) -> Path:
    """Registers 6 nimmt! under the package's name from a package of its own; returns the package's
    folder."""
    folder = tmp_path / package
    folder.mkdir()
    (folder / "__init__.py").write_text(
        "from rules.sixnimmt.game import SixNimmt\n\n\nclass PluggedIn(SixNimmt):\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    fields = {field.name: getattr(GAMES["sixnimmt"], field.name)
              for field in dataclasses.fields(SixNimmt) if field.init}
    monkeypatch.setitem(GAMES, package, importlib.import_module(package).PluggedIn(**{**fields, "name": package}))
    return folder


def test_a_plug_in_games_folder_is_in_its_own_package(tmp_path, monkeypatch):
    pwa = plug_in(tmp_path, monkeypatch, "plugged_game") / "pwa"
    (pwa / "cards").mkdir(parents=True)
    renderer = "export function render() { return document.createElement('div'); }\n"
    (pwa / "renderer.js").write_text(renderer)
    (pwa / "cards" / "back.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    plug_in(tmp_path, monkeypatch, "bare_game")  # no pwa/ folder
    copy = copy_of_the_pwa(tmp_path)
    shutil.copytree(copy / "games" / "sixnimmt", copy / "games" / "unregistered")
    # The blueprint alone: the API contract would refuse two games publishing one card schema.
    app = Flask(__name__, static_folder=None)
    app.config["PWA_DIR"] = str(copy)
    app.register_blueprint(blp)
    client = app.test_client()

    _, shell = served_worker(client)
    assert {"/games/plugged_game/renderer.js", "/games/plugged_game/cards/back.svg"} <= set(shell)
    assert not [url for url in shell if url.startswith(("/games/bare_game/", "/games/unregistered/"))]
    assert client.get("/games/plugged_game/renderer.js").get_data(as_text=True) == renderer
    assert client.get("/games/plugged_game/cards/back.svg").status_code == 200
    built_in = (copy / "games" / "sixnimmt" / "renderer.js").read_bytes()
    assert client.get("/games/sixnimmt/renderer.js").get_data() == built_in
    for path in ("/games/bare_game/renderer.js", "/games/unregistered/renderer.js",
                 "/games/plugged_game/missing.js", "/games/plugged_game/../__init__.py"):
        assert client.get(path).status_code == 404, path


def test_a_changed_file_installs_a_new_shell_on_the_phone(new_page, redis, store_env, tmp_path):
    expect = sync_api.expect
    copy = copy_of_the_pwa(tmp_path)
    config = {**store_env, "TESTING": True, "PWA_DIR": str(copy)}
    server = make_server("127.0.0.1", 0, create_app(config), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.port}"
        page = new_page()
        start(page, base, "Anna")
        wait_for_control(page)
        version, shell = parse_worker(page.request.get(f"{base}/sw.js").text())
        wait_for_cache(page, version)
        cached = page.evaluate(CACHED, version)
        assert sorted(cached) == sorted(shell), "the phone keeps every listed file"
        for name in GAMES:
            assert folder_urls(copy / "games" / name, name) <= set(cached), name

        # A new deploy (new processes on the same origin) where one game's How to play text changed.
        edit(copy / "games" / "sixtysix" / "howto.js", "Win tricks", "Take tricks")
        server.app = create_app(config)
        page.reload()
        expect(page.locator("#who")).to_contain_text("Anna")
        new_version = parse_worker(page.request.get(f"{base}/sw.js").text())[0]
        assert new_version != version
        wait_for_cache(page, new_version)
        text = page.evaluate("async () => (await (await caches.match('/games/sixtysix/howto.js')).text())")
        assert "Take tricks" in text and "Win tricks" not in text
    finally:
        server.shutdown()


def test_a_game_without_a_folder_cannot_be_shown(new_page, serve, tmp_path):
    expect = sync_api.expect
    base = serve({"PWA_DIR": str(copy_of_the_pwa(tmp_path, leave_out="hattrick"))})
    page = new_page()
    start(page, base, "Anna")
    _, shell = parse_worker(page.request.get(f"{base}/sw.js").text())
    assert "/games/sticheln/renderer.js" in shell
    assert not [url for url in shell if url.startswith("/games/hattrick/")]
    assert page.request.get(f"{base}/games/hattrick/renderer.js").status == 404
    page.get_by_label("Game", exact=True).select_option(label="Hattrick")
    expect(page.locator("#game-about")).to_have_text("This game cannot be shown by this version of the app.")
    page.get_by_label("Game", exact=True).select_option(label="Sticheln")
    expect(page.locator("#game-about")).to_contain_text("pain colour")
    game = call(page, base, "POST", "/games", {"type": "hattrick", "players": 4, "pace": "none",
                                             "seats": ["human"] + [{"bot": "easy"}] * 3})
    page.goto(f"{base}/#/game/{game['id']}")
    expect(page.get_by_text("This game cannot be shown by this version of the app.")).to_be_visible()
    page.get_by_role("button", name="How to play").click()
    expect(page.get_by_role("dialog")).to_contain_text("This version of the app has no guide for this game yet.")
