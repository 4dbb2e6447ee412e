"""The one owner of Redis: every key, script and channel, and the clients that reach them."""
