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



def play_out(client, headers, run_bots, public=False, finish=True) -> str:
    """A one-round 6 nimmt! against an easy bot, made and played over HTTP to its end (or left
    in play, not to `finish`); its id."""
    game_id = client.post("/api/v1/games", headers=headers, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}], "pace": "none",
        "options": {"threshold": 1}, "public": public}).get_json()["id"]
    if finish:
        play_to_the_end(client, headers, game_id, run_bots)
    return game_id
