"""The change feed that wakes long-polls and streams (api.storage.changes), on the store itself."""
import pytest

from api.storage import connections
from api.storage.changes import ChangeFeed
from api.storage.keys import game_channel

pytestmark = pytest.mark.cluster


def test_the_first_waiter_of_a_process_hears_a_change_made_right_after_it_registered(
        store, store_env):
    """A process's feed subscribes on its first wait: a change published between the waiter's
    first read and the subscription would reach nobody, and the waiter would sit out its wait."""
    feed = ChangeFeed(connections.store_client(store_env))
    channel = game_channel("g1")
    with feed.waiter(channel) as changed:
        store.publish(channel, "1")
        assert changed.wait(5), "the change right after the waiter registered woke it"
