"""Players ' profiles and the leaderboards."""
