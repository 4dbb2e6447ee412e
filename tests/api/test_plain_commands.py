"""The store's ready-packed commands answer as redis-py's own path does, and recover as it does
from a dropped connection and from a server that forgot a script."""
from api.storage import connections
from api.storage.plain_commands import PlainCommands, packed

_ECHO = "return {KEYS[1], ARGV[1], ARGV[2], redis.call('HGET', KEYS[1], 'version')}"


def store(redis_url):
    return connections.store_client({"REDIS_URL": redis_url}, **connections.COMMAND_OPTIONS)


def test_replies_and_bytes_are_redis_pys(redis_url):
    client = store(redis_url)
    plain = PlainCommands(client)
    client.hset("plain:game", mapping={"version": 3, "status": "playing"})
    fields = ("version", "seat:nobody", "status")
    assert plain.hmget("plain:game", *fields) == client.hmget("plain:game", *fields)
    script = client.register_script(_ECHO)
    assert plain.script(script, ["plain:game"], [7, 1.5]) == script(keys=["plain:game"],
                                                                    args=[7, 1.5])
    connection = client.connection_pool.get_connection()
    assert packed("EVALSHA", "x", 1, "k", 1.5) == connection.pack_command(
        "EVALSHA", "x", 1, "k", 1.5)[0]
    client.connection_pool.release(connection)


def test_a_dropped_connection_and_a_forgotten_script_cost_no_answer(redis, redis_url):
    client = store(redis_url)
    plain = PlainCommands(client)
    script = client.register_script(_ECHO)
    client.hset("plain:game", "version", 4)
    assert plain.hmget("plain:game", "version") == [b"4"]
    redis.client_kill_filter(_type="normal", skipme=True)  # every connection but the test's
    redis.script_flush()
    assert plain.hmget("plain:game", "version") == [b"4"]
    assert plain.script(script, ["plain:game"], ["a", "b"]) == [b"plain:game", b"a", b"b", b"4"]
