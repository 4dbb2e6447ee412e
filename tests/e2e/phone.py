"""What the browser tests share besides fixtures: the API as a phone's player sees it."""


def api_view(page, base: str, game_id: str) -> dict:
    """The game as the player of this phone (its token in localStorage) gets it from the API."""
    token = page.evaluate("JSON.parse(localStorage.getItem('poyta.player')).token")
    response = page.request.get(f"{base}/api/v1/games/{game_id}",
                                headers={"Authorization": f"Bearer {token}"})
    assert response.ok, response.text()
    return response.json()
