"""A Python client generated from the served spec plays whole games of every type, every
human seat through the client, using only the generated typed models; the example that
examples/README.md shows with it type-checks under `mypy --strict` and plays a game."""
import importlib
import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from api.http import create_app
from api.http.contract import prefix as contract_prefix
from rules import GAMES

GENERATOR = Path(sys.executable).parent / "openapi-python-client"
MYPY = Path(sys.executable).parent / "mypy"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "README.md"
# (players, options, client seats): the rest of the table are the server's easy bots. Every
# game plays its quick game with one client; these games also play a variant with two.
VARIANTS = {
    "sixnimmt": (3, {"draft": True, "threshold": 1}, 2),
    "sixtysix": (4, {"preset": "classic", "match_points": 1}, 2),
    "sticheln": (4, {"deals": 1, "tough": True, "late": True}, 2),
    "hattrick": (7, {"deals": 1}, 2),
}


def configurations(game):
    yield game.min_players, game.quick_options, 1
    if game.name in VARIANTS:
        yield VARIANTS[game.name]


@pytest.fixture(scope="module")
def generated(tmp_path_factory, redis_url):
    """The client package generated from the app's own /api/openapi.json."""
    where = tmp_path_factory.mktemp("client")
    app = create_app({"REDIS_URL": redis_url, "TESTING": True})  # the spec's budget counts there
    (where / "openapi.json").write_text(json.dumps(
        app.test_client().get("/api/openapi.json").get_json()))
    # The open data files are gzip: bytes to the client, as application/octet-stream is.
    (where / "config.yaml").write_text(
        "post_hooks: []\ncontent_type_overrides:\n  application/gzip: application/octet-stream\n")
    made = subprocess.run(
        [str(GENERATOR), "generate", "--path", str(where / "openapi.json"), "--meta", "none",
         "--output-path", str(where / "poyta_client"), "--config", str(where / "config.yaml"),
         "--fail-on-warning"], capture_output=True, text=True, timeout=180)
    assert made.returncode == 0, made.stdout + made.stderr
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module("poyta_client")
    finally:
        sys.path.remove(str(where))


def documented_example() -> str:
    guide = EXAMPLES.read_text()
    section = guide.split("## Python, with a generated client", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1)


def test_the_documented_example_type_checks_strictly_and_plays(generated, live_server,
                                                                tmp_path):
    where = Path(generated.__file__).parents[1]
    example = tmp_path / "example.py"
    example.write_text(documented_example())
    env = {**os.environ, "MYPYPATH": str(where), "PYTHONPATH": str(where),
           "POYTA_SERVER": live_server}
    # The whole client too: its stream functions answer text, not a model fed a string.
    checked = subprocess.run([str(MYPY), "--strict", "--no-incremental", str(example),
                              str(where / "poyta_client")],
                             capture_output=True, text=True, timeout=300, env=env,
                             cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    played = subprocess.run([sys.executable, str(example)], capture_output=True, text=True,
                            timeout=120, env=env, cwd=tmp_path)
    assert played.returncode == 0, played.stdout + played.stderr
    scores, winners = played.stdout.strip().splitlines()[-1].split("] [")
    assert len(json.loads(scores + "]")) == 4 and json.loads("[" + winners)


def test_the_generated_names_read(generated):
    """No `GameCreateSeatsItemType2Bot`, `VALUE_1` or `LastTrickType0`: each is named for what
    it is."""
    models = importlib.import_module("poyta_client.models")
    assert [name for name in models.__all__ if re.search(r"Type\d", name)] == []
    assert {member.name: member.value for member in models.Pace} == {
        "NONE": "none", "FIVE_MINUTES": "5m", "ONE_HOUR": "1h", "ONE_DAY": "1d",
        "THREE_DAYS": "3d"}
    assert {"BotSeat", "ReservedSeat", "BotLevelName", "GameStatus", "HattrickTableLastTrick",
            "StreamYourTurn", "WebhookEvent"} <= set(models.__all__)


def test_a_seat_list_with_every_kind_of_seat_reads_back(generated):
    from poyta_client.models import BotLevelName, BotSeat, GameCreate, Pace, ReservedSeat
    sent = {"type": "hattrick", "players": 4, "pace": "5m",
            "seats": ["human", {"bot": "easy"}, {"player": "0123456789abcdef"}, "human"]}
    made = GameCreate.from_dict(sent)
    assert made.seats == ["human", BotSeat(bot=BotLevelName.EASY),
                          ReservedSeat(player="0123456789abcdef"), "human"]
    assert made.pace is Pace.FIVE_MINUTES
    assert made.to_dict() == sent


class Seat:
    """One player of the game, acting only through the generated client."""

    def __init__(self, client_module, server: str, name: str):
        from poyta_client.api.players import create_player
        from poyta_client.models import NewPlayer, PlayerCreate
        anonymous = client_module.Client(base_url=server, raise_on_unexpected_status=True)
        player = create_player.sync(client=anonymous, body=PlayerCreate(name=name, bot=True))
        assert isinstance(player, NewPlayer)
        self.client = client_module.AuthenticatedClient(
            base_url=server, token=player.token, raise_on_unexpected_status=True,
            timeout=httpx.Timeout(60))


def typed(name: str):
    models = importlib.import_module("poyta_client.models")
    return getattr(models, name)


def play_whole_game(client_module, server, game_type, players, options, humans, rng):
    from poyta_client.api.games import accept_invite, act, create_game, get_events, get_game
    from poyta_client.models import (ActionRequest, BotLevelName, BotSeat, Error, GameCreate,
                                     GameCreateType, GameStatus, Pace)
    from poyta_client.types import UNSET
    prefix = contract_prefix(GAMES[game_type])
    seats = [Seat(client_module, server, f"Client {index}") for index in range(humans)]
    body = GameCreate(
        type_=GameCreateType(game_type), players=players,
        seats=["human"] * humans + [BotSeat(bot=BotLevelName.EASY)] * (players - humans),
        options=typed(f"{prefix}Options").from_dict(options),
        pace=Pace.NONE if humans == 1 else Pace.ONE_DAY)
    view = create_game.sync(client=seats[0].client, body=body)
    assert isinstance(view, typed(f"{prefix}GameView")), view
    for seat, invite in zip(seats[1:], view.invites):
        joined = accept_invite.sync(invite.code, client=seat.client)
        assert joined.your_seat == invite.seat
    moves, etag = 0, UNSET
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "the game did not finish in time"
        # Long-poll as the first seat: the answer comes as soon as the game changes.
        polled = get_game.sync_detailed(view.id, client=seats[0].client, wait=10,
                                        if_none_match=etag)
        if polled.status_code == 304:
            continue
        etag = polled.headers["ETag"]
        views = [polled.parsed, *(get_game.sync(view.id, client=seat.client)
                                  for seat in seats[1:])]
        for seen in views:
            assert isinstance(seen, typed(f"{prefix}GameView"))
            assert isinstance(seen.table, typed(f"{prefix}Table"))
        if views[0].status == GameStatus.FINISHED:
            break
        acting = [(seat, seen) for seat, seen in zip(seats, views)
                  if seen.your_seat in seen.to_act]
        for seat, seen in acting:
            action = rng.choice(seen.legal_actions)
            assert type(action).__name__.startswith(prefix), action
            answer = act.sync(seen.id, client=seat.client,
                              body=ActionRequest(action=action, version=seen.version))
            assert isinstance(answer, (typed(f"{prefix}GameView"), Error)), answer
            if isinstance(answer, Error):
                assert answer.code == 409, answer.message  # someone moved first: look again
            else:
                moves += 1
    final = views[0]
    assert isinstance(final.outcome, typed(f"{prefix}Outcome"))
    assert len(final.outcome.scores) == players and final.outcome.winners
    log = get_events.sync(final.id, client=seats[0].client)
    assert isinstance(log, typed(f"{prefix}Events"))
    assert all(type(event).__name__.startswith(prefix) for event in log.events)
    assert type(log.events[-1]).__name__ == {
        "sixtysix": "SixtySixMatchOverEvent"}.get(game_type, f"{prefix}GameOverEvent")
    return moves


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_a_generated_client_plays_every_game_to_its_end(generated, live_server, game_type):
    rng = random.Random(game_type)
    for players, options, humans in configurations(GAMES[game_type]):
        assert play_whole_game(generated, live_server, game_type, players, options, humans,
                               rng) > 0
