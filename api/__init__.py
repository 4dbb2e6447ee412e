"""Pöytä's server. `api.http` serves the HTTP API and the PWA, `api.tables` is the domain
(players, seats, play, bots), `api.storage` the one owner of Redis, `api.settings` every
setting; docs/architecture.md says which may import which."""
