"""Ratings: after every finished game each seat's rating is openskill's Plackett-Luce update of
the ratings before it, with places from the outcome; recorded once, whatever process dies."""
import json
import random
import signal
from collections import defaultdict

import pytest
from openskill.models import PlackettLuce
from rq import Queue
from rq.registry import StartedJobRegistry
from worker_processes import start_worker, within

from api import faults
from api.storage.jobs import BOT_QUEUE
from api.tables import Tables
from api.tables.model import FINISHED, Player
from api.tables.ratings import places
from api.tables.views import summary
from rules import GAMES

MODEL = PlackettLuce()


def play_out(tables: Tables, game_id: str, humans: dict[int, Player], rng: random.Random,
             resigns: int | None = None, times_out: int | None = None, clock=None) -> None:
    """Random legal moves for the humans, the bots' own for the bots, to the end; `resigns`
    gives up at their first turn, `times_out` lets every turn's time run out."""
    for _ in range(5000):
        stored = tables.games.load(game_id)
        if stored.status() == FINISHED:
            return
        for seat in stored.to_act():
            entry = stored.seats[seat]
            if seat not in humans or entry.standin:
                continue
            if seat == resigns:
                tables.play.resign(game_id, humans[seat])
            elif seat == times_out:
                clock.set(entry.deadline + 1)
                assert tables.bots.deadline_passed(game_id, seat, entry.turn_since)
            else:
                action = rng.choice(stored.game.legal_actions(stored.state, seat))
                tables.play.act(game_id, humans[seat], action, None)
            break
        tables.bots.play_due(game_id)
    raise AssertionError("the game did not end")


def rated_id(seat) -> str:
    return seat.player_id if seat.bot is None else f"bot-{seat.bot}"


def rated(stored, seat) -> tuple[str, str]:
    """Ratings are kept per player and game type."""
    return stored.game.name, rated_id(seat)


def expected_places(stored) -> tuple[list[int], list[list[int]]]:
    """Each seat's place and the teams, from the rules as the issue words them, independently
    of the server's code."""
    scores = stored.outcome()["scores"]
    seats = len(stored.seats)
    teams = ([[0, 2], [1, 3]] if stored.game.name == "sixtysix" and seats == 4
             else [[seat] for seat in range(seats)])
    quit = {seat for seat, entry in enumerate(stored.seats) if entry.resigned or entry.standin}
    better = (lambda a, b: a < b) if stored.game.name == "sixnimmt" else (lambda a, b: a > b)
    playing = [team for team in teams if not quit & set(team)]
    result = {}
    for team in teams:
        if quit & set(team):
            place = len(playing) + 1
        else:
            place = 1 + sum(better(scores[other[0]], scores[team[0]]) for other in playing)
        for seat in team:
            result[seat] = place
    return [result[seat] for seat in range(seats)], teams


def expected_update(ratings: dict, stored) -> None:
    seat_places, teams = expected_places(stored)
    players = [rated(stored, seat) for seat in stored.seats]
    # One rating object per seat: openskill's rate mixes up one object given twice.
    new = MODEL.rate([[MODEL.rating(mu=ratings[players[seat]].mu,
                                    sigma=ratings[players[seat]].sigma) for seat in team]
                      for team in teams],
                     ranks=[seat_places[team[0]] for team in teams])
    after = {seat: rating for team, rated in zip(teams, new) for seat, rating in zip(team, rated)}
    by_player = defaultdict(list)
    for seat, player in enumerate(players):
        by_player[player].append(after[seat])
    for player, seats in by_player.items():  # a bot level in several seats: their mean
        ratings[player] = MODEL.rating(mu=sum(r.mu for r in seats) / len(seats),
                                       sigma=sum(r.sigma for r in seats) / len(seats))


def check_ratings(tables: Tables, ratings: dict, stored) -> None:
    for seat in stored.seats:
        player = rated(stored, seat)
        found = tables.profiles.profile(player[1], None)["ratings"][stored.game.name]
        assert found["mu"] == pytest.approx(ratings[player].mu), (player, stored.game.name)
        assert found["sigma"] == pytest.approx(ratings[player].sigma)
        assert found["ordinal"] == pytest.approx(ratings[player].mu - 3 * ratings[player].sigma)


def test_every_seat_of_every_type_gets_openskills_update_with_places_from_the_outcome(
        store, redis, run_bots, clock):
    tables = Tables(store, queue_redis=redis)
    anna, bert = tables.players.create("Anna"), tables.players.create("Bert")
    rng = random.Random(7)
    ratings = defaultdict(MODEL.rating)
    games = [  # type, seats, humans by seat, what happens
        ("sixnimmt", ["human", {"bot": "easy"}, {"bot": "medium"}], {0: anna}, {}),
        ("sixtysix", ["human", "human", {"bot": "easy"}, {"bot": "medium"}],
         {0: anna, 1: bert}, {}),
        ("sticheln", ["human", "human", {"bot": "easy"}], {0: anna, 1: bert},
         {"times_out": 1}),
        ("hattrick", ["human", {"bot": "easy"}, {"bot": "easy"}, {"bot": "medium"}],
         {0: anna}, {"resigns": 0}),
        ("sixnimmt", ["human", "human", {"bot": "easy"}], {0: anna, 1: bert}, {}),
        ("sixtysix", ["human", {"bot": "easy"}, "human", {"bot": "easy"}],
         {0: anna, 2: bert}, {"resigns": 2}),
        # Resigning a two-player game ends it there: the other player wins.
        ("sixtysix", ["human", {"bot": "easy"}], {0: anna}, {"resigns": 0}),
    ]
    for kind, seats, humans, happens in games:
        pace = "none" if len(humans) == 1 else "5m"
        stored = tables.seating.create_game(anna, kind, len(seats),
                                            dict(GAMES[kind].quick_options), seats, pace=pace)
        for seat, player in humans.items():
            if player is not anna:
                code = next(s.invite for i, s in enumerate(tables.games.load(stored.id).seats)
                            if i == seat)
                tables.seating.accept_invite(code, player)
        play_out(tables, stored.id, humans, rng, clock=clock, **happens)
        run_bots()  # the results job, in a real RQ worker
        finished = tables.games.load(stored.id)
        assert finished.results is not None, "the results are recorded"
        seat_places, _ = expected_places(finished)
        assert [seat["place"] for seat in finished.results["seats"]] == seat_places
        assert places(finished) == seat_places
        assert summary(finished, anna.id)["your_place"] == seat_places[0], "the inbox agrees"
        if "resigns" in happens or "times_out" in happens:
            quitter = happens.get("resigns", happens.get("times_out"))
            assert seat_places[quitter] == max(seat_places), "a quitter places last"
        expected_update(ratings, finished)
        check_ratings(tables, ratings, finished)
    profile = tables.profiles.profile(anna.id, anna)
    assert profile["ratings"]["sixnimmt"]["games"] == 2
    assert profile["ratings"]["sixnimmt"]["provisional"] is True
    assert profile["games"]["sixtysix"]["finished"] == 3


def test_equal_results_share_a_place_and_quitters_tie_last(store, redis):
    tables = Tables(store, queue_redis=redis)
    anna = tables.players.create("Anna")
    stored = tables.seating.create_game(anna, "sixnimmt", 5, {}, ["human"] + [{"bot": "easy"}] * 4,
                                        pace="none")
    stored.state.update(phase="over", scores=[3, 3, 7, 1, 2])
    assert places(stored) == [3, 3, 5, 1, 2], "fewest bullheads first; a tie shares its place"
    stored.seats[3].resigned = stored.seats[3].standin = True
    stored.seats[4].standin = True  # played to the end by a stand-in after time-outs
    assert places(stored) == [1, 1, 3, 4, 4]

    four = tables.seating.create_game(anna, "sixtysix", 4, {}, ["human"] + [{"bot": "easy"}] * 3,
                                      pace="none")
    four.state.update(over=True, scores=[3, 5])
    assert places(four) == [2, 1, 2, 1], "partners share their side's place"
    four.seats[1].resigned = True
    assert places(four) == [1, 2, 1, 2], "a quitter takes the partnership down with it"


@pytest.mark.cluster
def test_a_worker_killed_midway_leaves_every_update_applied_exactly_once(
        store, redis, redis_url, processes):
    tables = Tables(store, queue_redis=redis)
    anna = tables.players.create("Anna")
    seats = ["human", {"bot": "easy"}, {"bot": "medium"}]
    game_id = tables.seating.create_game(anna, "sixnimmt", 3, {"threshold": 1}, seats,
                                         pace="none").id
    play_out(tables, game_id, {0: anna}, random.Random(3))  # its results job waits queued

    dying = start_worker(processes, redis, redis_url, queues=(BOT_QUEUE,),
                         **faults.armed(faults.AFTER_RATING_UPDATE))
    assert dying.wait(30) == -signal.SIGKILL
    assert tables.profiles.profile(anna.id, None)["ratings"]["sixnimmt"]["games"] == 1
    assert tables.profiles.profile("bot-easy", None)["ratings"] == {}, "killed mid-way"
    assert tables.games.load(game_id).results is None
    assert StartedJobRegistry(BOT_QUEUE, connection=redis).get_job_ids(), "the job was in hand"

    start_worker(processes, redis, redis_url, queues=(BOT_QUEUE,))
    within(20, lambda: tables.games.load(game_id).results is not None)
    finished = tables.games.load(game_id)
    ratings = defaultdict(MODEL.rating)
    expected_update(ratings, finished)
    check_ratings(tables, ratings, finished)
    for player in (anna.id, "bot-easy", "bot-medium"):
        profile = tables.profiles.profile(player, None)
        assert profile["ratings"]["sixnimmt"]["games"] == 1, player
        assert profile["games"]["sixnimmt"]["finished"] == 1, player
        assert len(profile["rating_history"]["sixnimmt"]) == 1, player


@pytest.mark.cluster
def test_a_player_rated_by_another_game_meanwhile_is_updated_from_the_newer_rating(store, redis):
    """Two games of the same players finish together: the second's job read the ratings before
    the first was recorded. Its updates apply to the newer standings, none is lost."""
    tables = Tables(store, queue_redis=redis)
    anna = tables.players.create("Anna")
    first, second = (tables.seating.create_game(anna, "sixnimmt", 2, {"threshold": 1},
                                                ["human", {"bot": "easy"}], pace="none").id
                     for _ in range(2))
    for game_id in (first, second):
        play_out(tables, game_id, {0: anna}, random.Random(game_id))
    players = [anna.id, "bot-easy"]
    ratings_store = tables.storage.ratings
    ratings_store.keep_snapshot(second, json.dumps(ratings_store.standings(players, "sixnimmt")))

    assert tables.ratings.record(first)
    after_first = {player: tables.profiles.profile(player, None)["ratings"]["sixnimmt"]
                   for player in players}
    assert tables.ratings.record(second)
    done = tables.games.load(second)
    seat_places, _ = expected_places(done)
    for seat, player in enumerate(players):
        # This player's rating after the first game, the other's as the second game saw it.
        seen = [MODEL.rating() for _ in players]
        seen[seat] = MODEL.rating(mu=after_first[player]["mu"], sigma=after_first[player]["sigma"])
        new = MODEL.rate([[rating] for rating in seen], ranks=seat_places)[seat][0]
        found = tables.profiles.profile(player, None)
        assert found["ratings"]["sixnimmt"]["games"] == 2, player
        assert found["ratings"]["sixnimmt"]["mu"] == pytest.approx(new.mu), player
        assert found["ratings"]["sixnimmt"]["sigma"] == pytest.approx(new.sigma), player
        assert len(found["rating_history"]["sixnimmt"]) == 2


@pytest.mark.cluster
def test_a_results_job_lost_before_it_was_queued_is_queued_by_the_sweeper(
        store, redis, redis_url, processes):
    tables = Tables(store, queue_redis=redis)
    anna = tables.players.create("Anna")
    game_id = tables.seating.create_game(anna, "sixnimmt", 2, {"threshold": 1},
                                         ["human", {"bot": "easy"}], pace="none").id
    play_out(tables, game_id, {0: anna}, random.Random(9))
    Queue(BOT_QUEUE, connection=redis).empty()  # as if the process died before queueing it
    assert tables.storage.schedule.due_time(game_id) is not None, "marked due before the commit"

    start_worker(processes, redis, redis_url, queues=(BOT_QUEUE,))
    within(15, lambda: tables.games.load(game_id).results is not None)
    within(10, lambda: tables.storage.schedule.due_time(game_id) is None)
    assert tables.profiles.profile(anna.id, None)["ratings"]["sixnimmt"]["games"] == 1
