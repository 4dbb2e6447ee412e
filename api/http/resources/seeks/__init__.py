"""Play now: seeks, and the tables matchmaking forms from them."""
