"""What a player's stream tells of the talk at their tables, on a real Valkey without HTTP: each
line once, and never a line of a player they block (as the table's talk reads to them)."""
import pytest

from api.tables import Tables


@pytest.fixture
def tables(store, redis):
    return Tables(store, queue_redis=redis)


def told_lines(events: list[dict]) -> list[str]:
    return [event["text"] for event in events if event["type"] == "chat"]


def test_a_stream_tells_each_new_line_once_and_none_of_a_blocked_player(tables):
    anna, bert, carl = (tables.players.create(name) for name in ("Anna", "Bert", "Carl"))
    game = tables.seating.create_game(anna, "sixnimmt", 3, {}, ["human", "human", "human"],
                                      public=True)
    tables.seating.join(game.id, bert, None)
    tables.seating.join(game.id, carl, None)
    told, _ = tables.streams.start(anna, None)
    assert told_lines(tables.streams.changes(anna, told)) == []

    tables.chat.say(game.id, bert, "hello")
    tables.chat.say(game.id, carl, "hi")
    assert told_lines(tables.streams.changes(anna, told)) == ["hello", "hi"]
    assert told_lines(tables.streams.changes(anna, told)) == []

    tables.friends.block(anna, bert.id)
    tables.chat.say(game.id, bert, "are you there?")
    tables.chat.say(game.id, carl, "your turn, Anna")
    assert told_lines(tables.streams.changes(anna, told)) == ["your turn, Anna"]
    assert [line["text"] for line in tables.chat.read(game.id, anna, 0)["messages"]] == [
        "hi", "your turn, Anna"], "reading the table mutes Bert too"
    assert told_lines(tables.streams.start(anna, 0.0)[1]) == ["hi", "your turn, Anna"], \
        "a resumed stream tells what was said since, Bert muted"
    assert told_lines(tables.streams.start(bert, 0.0)[1]) == [
        "hello", "hi", "are you there?", "your turn, Anna"], "Bert blocks nobody"

    tables.friends.unblock(anna, bert.id)
    tables.chat.say(game.id, bert, "again")
    assert told_lines(tables.streams.changes(anna, told)) == ["again"]
