"""A finished game's record says where each trick (in 6 nimmt! each turn) of each deal begins:
the replay step at which none of its cards is on the table yet."""
import pytest

from rules import GAMES

from playing import play_to_the_end


def nothing_of_it_shown(game_type, table, number):
    """No card of trick (turn) `number` is on the table."""
    if game_type == "sixnimmt":
        return table["turn"] == number and not any(table["chosen"]) and not table["revealed"]
    if game_type == "sticheln":
        return table["trick"] == [] and table["tricks_played"] == number - 1
    if game_type == "hattrick":
        return table["trick"] == [] and len(table["tricks"]) == number - 1
    return table["trick"] == [] and sum(table["tricks"]) == number - 1  # two players: a side each


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_each_trick_begins_at_a_step_with_none_of_its_cards_shown(client, new_player, run_bots, game_type):
    game = GAMES[game_type]
    _, anna = new_player()
    seats = ["human"] + [{"bot": "easy"}] * (game.typical_players - 1)
    view = client.post("/api/v1/games", json={"type": game_type, "players": len(seats), "seats": seats,
                                              "options": game.quick_options}, headers=anna).get_json()
    play_to_the_end(client, anna, view["id"], run_bots)
    record = client.get(f"/api/v1/games/{view['id']}/record", headers=anna).get_json()
    tricks = record["trick_chapters"]
    assert tricks and [t["step"] for t in tricks] == sorted({t["step"] for t in tricks})
    for deal in {c["deal"] for c in record["chapters"]}:
        numbers = [t["trick"] for t in tricks if t["deal"] == deal]
        assert numbers == list(range(1, len(numbers) + 1)), (deal, numbers)
    for chapter in tricks:
        step = client.get(f"/api/v1/games/{view['id']}/replay/{chapter['step']}", headers=anna).get_json()
        assert step["view"]["deal"] == chapter["deal"]
        assert nothing_of_it_shown(game_type, step["view"]["table"], chapter["trick"]), (chapter, step["view"]["table"])
