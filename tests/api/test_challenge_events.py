"""Challenges on a player's stream and Standard Webhook: `challenge` (a seat kept for you),
`challenge_declined` (told to the creator), `challenge_withdrawn` (the creator left the game
before you sat down), each once; a bot on its webhook hears of a challenge without polling."""
from jsonschema import Draft202012Validator
from rq import Queue

from api.http.resources.stream.schemas import SCHEMAS
from api.storage.jobs import WEBHOOK_QUEUE
from test_webhooks import Hook, hooks, loopback, tables, types  # noqa: F401 (fixtures)
from worker.runner import PromptWorker

CHALLENGE = ("sixtysix", 2, {})


TYPED = Draft202012Validator({"$ref": "#/components/schemas/StreamEvent",
                              "components": {"schemas": {
                                  **SCHEMAS, "GameOutcome": {"type": "object"}}}})


def typed(events):
    for event in events:
        TYPED.validate(event)
    return events


def challenge(tables, anna, bert):
    return tables.seating.create_game(anna, *CHALLENGE, ["human", {"player": bert.id}])


def test_a_challenge_is_told_once_and_its_decline_to_the_creator(tables):
    anna, bert = tables.players.create("Anna"), tables.players.create("Bert")
    anna_told, _ = tables.streams.start(anna, None)
    bert_told, first = tables.streams.start(bert, None)
    assert first == []
    game = challenge(tables, anna, bert)
    [told] = typed(tables.streams.changes(bert, bert_told))
    assert {key: told[key] for key in ("type", "game", "from", "seat", "game_type")} == {
        "type": "challenge", "game": game.id, "from": "Anna", "seat": 1,
        "game_type": "sixtysix"}
    assert tables.streams.changes(bert, bert_told) == []
    assert tables.streams.changes(anna, anna_told) == []
    tables.challenges.decline(game.id, bert)
    [declined] = typed(tables.streams.changes(anna, anna_told))
    assert {key: declined[key] for key in ("type", "game", "seat", "player")} == {
        "type": "challenge_declined", "game": game.id, "seat": 1, "player": bert.id}
    assert tables.streams.changes(bert, bert_told) == []


def test_a_challenge_taken_starts_the_game_and_one_withdrawn_is_told(tables):
    anna, bert = tables.players.create("Anna"), tables.players.create("Bert")
    bert_told, _ = tables.streams.start(bert, None)
    taken = challenge(tables, anna, bert)
    assert types(tables.streams.changes(bert, bert_told)) == ["challenge"]
    tables.seating.join(taken.id, bert, None)
    assert types(tables.streams.changes(bert, bert_told))[0] == "game_started"
    withdrawn = challenge(tables, anna, bert)
    assert types(tables.streams.changes(bert, bert_told)) == ["challenge"]
    assert tables.seating.leave(withdrawn.id, anna) is None
    [told] = typed(tables.streams.changes(bert, bert_told))
    assert (told["type"], told["game"]) == ("challenge_withdrawn", withdrawn.id)
    assert tables.streams.changes(bert, bert_told) == []
    _, again = tables.streams.start(bert, None)
    assert "challenge" not in types(again)


def test_a_bot_hears_of_its_challenge_on_its_webhook(tables, redis, hooks):  # noqa: F811
    anna, bot = tables.players.create("Anna"), tables.players.create("Robo", bot=True)
    hook = hooks()
    secret = tables.webhooks.set(bot, hook.url)["secret"]
    game = challenge(tables, anna, bot)
    PromptWorker([Queue(WEBHOOK_QUEUE, connection=redis)], connection=redis).work(burst=True)
    [body] = hook.accepted(secret)
    assert body["type"] == "challenge" and body["data"]["game"] == game.id
    tables.seating.join(game.id, bot, None)
    PromptWorker([Queue(WEBHOOK_QUEUE, connection=redis)], connection=redis).work(burst=True)
    assert types(hook.accepted(secret))[:2] == ["challenge", "game_started"]
