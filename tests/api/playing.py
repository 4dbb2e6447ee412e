"""Playing a game over HTTP as its one human, the server's bots run by a real RQ worker."""


def play_to_the_end(client, headers, game_id, run_bots) -> dict:
    """The human plays its first legal action whenever it has one; the finished game's view."""
    for _ in range(2000):
        run_bots()
        view = client.get(f"/api/v1/games/{game_id}", headers=headers).get_json()
        if view["status"] == "finished":
            return view
        if view["legal_actions"]:
            client.post(f"/api/v1/games/{game_id}/actions",
                        json={"action": view["legal_actions"][0], "version": view["version"]},
                        headers=headers)
    raise AssertionError("the game did not end")

