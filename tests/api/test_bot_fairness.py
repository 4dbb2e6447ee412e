"""A fair share of the bots' time: a player whose bots thought more than their share in the last
minute waits behind everyone else, and their bots think only the least share of their budget."""
from rq import Queue

from api.http import create_app
from api.storage.jobs import BOT_QUEUE, DEEP_BOT_QUEUE, HEAVY_BOT_QUEUE
from api.tables.scheduling import LEAST_SHARE
from worker.runner import PromptWorker

HARD3 = ["human", {"bot": "hard"}, {"bot": "hard"}, {"bot": "hard"}]


def queued(redis, name):
    return [job.args[0] for job in Queue(name, connection=redis).jobs]


def test_a_player_over_their_share_of_bot_time_waits_behind_everyone_else(
        redis, store_env, monkeypatch):
    monkeypatch.setenv("POYTA_HARD_SECONDS", "0.3")
    monkeypatch.setenv("POYTA_BOT_SECONDS_A_MINUTE", "0.4")
    app = create_app({**store_env, "TESTING": True})
    client, service = app.test_client(), app.extensions["poyta"]
    worker = PromptWorker([Queue(name, connection=redis)
                           for name in (DEEP_BOT_QUEUE, BOT_QUEUE, HEAVY_BOT_QUEUE)],
                          connection=redis)

    def player(name):
        token = client.post("/api/v1/players", json={"name": name}).get_json()["token"]
        return {"Authorization": f"Bearer {token}"}

    def move(headers, game_id):
        """The human's moves (a card, maybe a row to take) until the bots are due."""
        while True:
            view = client.get(f"/api/v1/games/{game_id}", headers=headers).get_json()
            assert client.post(f"/api/v1/games/{game_id}/actions", headers=headers, json={
                "action": view["legal_actions"][0], "version": view["version"]}).status_code == 200
            if service.games.find(game_id).moves_due():
                return

    anna, bert = player("Anna"), player("Bert")
    games = {}
    for name, headers in (("anna", anna), ("bert", bert)):
        games[name] = client.post("/api/v1/games", headers=headers, json={
            "type": "sixnimmt", "players": 4, "seats": HARD3, "pace": "none"}).get_json()["id"]
    worker.work(burst=True)        # the bots choose their first cards
    spent = lambda payer: service.jobs.bot_time.spent(payer)[0]  # noqa: E731
    anna_id = service.games.find(games["anna"]).payer()
    turns = []
    while spent(anna_id) <= 0.4:   # Anna's hard bots think a full turn each time
        before = spent(anna_id)
        move(anna, games["anna"])
        assert queued(redis, DEEP_BOT_QUEUE) == [games["anna"]]
        worker.work(burst=True)
        turns.append(spent(anna_id) - before)

    move(anna, games["anna"])      # over her share: behind everyone else
    move(bert, games["bert"])
    assert queued(redis, HEAVY_BOT_QUEUE) == [games["anna"]]
    assert queued(redis, DEEP_BOT_QUEUE) == [games["bert"]]
    before = spent(anna_id)
    worker.work(burst=True)
    thrifty_turn = spent(anna_id) - before
    updated = {name: service.storage.games.load(game_id).updated for name, game_id in games.items()}
    assert updated["bert"] < updated["anna"], "Bert's bots moved first although queued later"
    # Three hard bots at a twentieth of 0.3 s each, and the job's own work beside them (a full
    # turn is up to 0.27 s; a loaded machine's wall clock may cut it shorter, never longer).
    assert thrifty_turn < 3 * LEAST_SHARE * 0.3 + 0.05, (thrifty_turn, turns)
    views = [client.get(f"/api/v1/games/{games[name]}", headers=h).get_json()
             for name, h in (("anna", anna), ("bert", bert))]
    assert all(view["your_seat"] in view["to_act"] for view in views), "every bot moved"


def test_a_reply_to_a_human_goes_first_and_each_waiting_game_gets_one_bot_move_in_turn(redis, store_env):
    app = create_app({**store_env, "TESTING": True})
    client, service = app.test_client(), app.extensions["poyta"]
    worker = PromptWorker([Queue(name, connection=redis)
                           for name in (DEEP_BOT_QUEUE, BOT_QUEUE, HEAVY_BOT_QUEUE)],
                          connection=redis)
    games = []
    for name in ("Anna", "Bert"):
        token = client.post("/api/v1/players", json={"name": name}).get_json()["token"]
        games.append(client.post("/api/v1/games", headers={"Authorization": f"Bearer {token}"},
                                 json={"type": "sixnimmt", "players": 4, "pace": "none",
                                       "seats": ["human"] + [{"bot": "medium"}] * 3}
                                 ).get_json()["id"])
    anna, bert = games
    assert queued(redis, BOT_QUEUE) == [bert, anna], "the newest reply to a human goes first"
    due = lambda game_id: len(service.games.find(game_id).moves_due())  # noqa: E731

    worker.work(burst=True, max_jobs=1)
    assert (due(anna), due(bert)) == (3, 2), "Bert's job moved one bot, then gave way"
    assert queued(redis, BOT_QUEUE) == [anna, bert]
    worker.work(burst=True, max_jobs=1)
    assert (due(anna), due(bert)) == (2, 2)
    assert queued(redis, BOT_QUEUE) == [bert, anna]
    worker.work(burst=True)
    assert (due(anna), due(bert)) == (0, 0)


def test_the_bots_of_a_game_nobody_waits_for_take_the_heavy_queue(redis, store_env):
    app = create_app({**store_env, "TESTING": True})
    client, service = app.test_client(), app.extensions["poyta"]
    token = client.post("/api/v1/players", json={"name": "Anna"}).get_json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    game_id = client.post("/api/v1/games", headers=headers, json={
        "type": "sixtysix", "players": 3, "pace": "none",
        "seats": ["human", {"bot": "medium"}, {"bot": "medium"}]}).get_json()["id"]
    PromptWorker([Queue(BOT_QUEUE, connection=redis)], connection=redis).work(burst=True)
    assert client.post(f"/api/v1/games/{game_id}/resign", headers=headers,
                       json={}).status_code == 200
    assert service.games.find(game_id).nobody_waits()
    assert queued(redis, HEAVY_BOT_QUEUE) == [game_id]
    assert queued(redis, BOT_QUEUE) == []
