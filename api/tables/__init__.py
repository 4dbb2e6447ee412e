"""The domain: players, tables and seats, play, bots and deadlines, talk, history and notices.
Pure of HTTP; storage is `api.storage`."""
