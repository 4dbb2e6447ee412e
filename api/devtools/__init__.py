"""Development tools, not part of a production deployment: `make run`'s supervisor and the
embedded Valkey server and cluster the tests and benchmarks start."""
