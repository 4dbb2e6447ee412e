"""Long-polls as the server counts them: each waiting request holds a slot in its player's
sorted set on the queue's Redis (api.storage.budgets.LongPollSlots), taken once it is
authenticated and before it waits."""
from waiting import wait_until


def held_long_polls(redis) -> int:
    """The waiting requests of every player."""
    return sum(redis.zcard(key) for key in redis.scan_iter("longpolls:*"))


def wait_for_long_polls(redis, count: int = 1) -> None:
    """Until `count` requests wait (a test that acts after this acts on a waiting request)."""
    wait_until(lambda: held_long_polls(redis) >= count, f"{count} waiting request(s)")
