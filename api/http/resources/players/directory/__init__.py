"""The player directory: players and bot accounts by the start of their name."""
