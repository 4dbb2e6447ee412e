"""Friends, friend links and blocks."""
