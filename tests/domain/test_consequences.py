"""What follows a commit, as a table of facts and answers (`api.tables.consequences`): no Redis,
no game, only the decision."""
import pytest

from api.tables.consequences import (
    ARCHIVE_GRACE, BOTS_NOW, DUE_GRACE, ArchiveGame, Committed, DeliverWebhooks, MarkDue,
    NotifyStarted, NotifyTurn, OweWebhooks, Position, QueueBots, RecordResults, TournamentGameFinished,
    consequences,
)

ACTIVE, FINISHED, WAITING = "active", "finished", "waiting"
AT = 1000.0
WAITS = Position(WAITING)
HUMAN_TO_ACT = Position(ACTIVE, to_act=(0,), due=AT + 86400, turns_started=(0,))
HUMAN_STILL_TO_ACT = Position(ACTIVE, to_act=(0,), due=AT + 86400)
BOT_DUE = Position(ACTIVE, to_act=(1,), moves_due=(1,), levels_due=("easy",), due=BOTS_NOW)
HARD_DUE = Position(ACTIVE, to_act=(1, 2), moves_due=(1, 2), levels_due=("easy", "hard"),
                    due=BOTS_NOW)
BOTS_ALONE = Position(ACTIVE, to_act=(0,), moves_due=(0,), levels_due=("easy",), due=BOTS_NOW,
                      nobody_waits=True)
OVER = Position(FINISHED)
TOURNAMENT_BOT_DUE = Position(ACTIVE, to_act=(1,), moves_due=(1,), levels_due=("easy",),
                              due=BOTS_NOW, tournament="t1")
TOURNAMENT_OVER = Position(FINISHED, tournament="t1")


def committed(before, after, players=("anna",)):
    return Committed("g1", 7, AT, before, after, players, "anna")


def follows(before, after, players=("anna",)):
    plan = consequences(committed(before, after, players))
    return list(plan.ahead), list(plan.after)


TABLE = {
    "a new game waiting for players: only its players' webhooks": (
        None, WAITS,
        [OweWebhooks(("anna",))],
        [DeliverWebhooks()]),
    "a human's turn starts: due at its deadline, and told": (
        WAITS, HUMAN_TO_ACT,
        [MarkDue("g1", AT + 86400), OweWebhooks(("anna",))],
        [NotifyTurn("g1", 0, 7), DeliverWebhooks()]),
    "a human still to act (a chat-like change): nothing new is due or told": (
        HUMAN_STILL_TO_ACT, HUMAN_STILL_TO_ACT,
        [OweWebhooks(("anna",))],
        [DeliverWebhooks()]),
    "bots become due: marked due in a grace period, their job first in line": (
        HUMAN_TO_ACT, BOT_DUE,
        [MarkDue("g1", AT + DUE_GRACE), OweWebhooks(("anna",))],
        [QueueBots("g1", "bots-g1-7", ("easy",), "anna", False, first=True), DeliverWebhooks()]),
    "bots still due after a bot's move: their job goes on, nothing queued": (
        BOT_DUE, HARD_DUE,
        [OweWebhooks(("anna",))],
        [DeliverWebhooks()]),
    "bots alone at the table: their job waits behind those a human waits for": (
        HUMAN_TO_ACT, BOTS_ALONE,
        [MarkDue("g1", AT + DUE_GRACE), OweWebhooks(("anna",))],
        [QueueBots("g1", "bots-g1-7", ("easy",), "anna", True, first=False), DeliverWebhooks()]),
    "the game finishes: its results are due and queued, the archive owed it": (
        BOT_DUE, OVER,
        [MarkDue("g1", AT + DUE_GRACE), ArchiveGame("g1", AT + ARCHIVE_GRACE),
         OweWebhooks(("anna",))],
        [RecordResults("g1"), DeliverWebhooks()]),
    "a human's move finishes the game: owed to the archive, its results queued": (
        HUMAN_TO_ACT, OVER,
        [MarkDue("g1", AT + DUE_GRACE), ArchiveGame("g1", AT + ARCHIVE_GRACE),
         OweWebhooks(("anna",))],
        [RecordResults("g1"), DeliverWebhooks()]),
    "a tournament's game finishes: its results, then its tournament looks at its round": (
        TOURNAMENT_BOT_DUE, TOURNAMENT_OVER,
        [MarkDue("g1", AT + DUE_GRACE), ArchiveGame("g1", AT + ARCHIVE_GRACE),
         OweWebhooks(("anna",))],
        [RecordResults("g1"), TournamentGameFinished("t1", "g1"), DeliverWebhooks()]),
    "a tournament's finished game changes again: its round is not looked at again": (
        TOURNAMENT_OVER, TOURNAMENT_OVER,
        [OweWebhooks(("anna",))],
        [DeliverWebhooks()]),
    "a finished game changes again (its results kept): nothing more": (
        OVER, OVER,
        [OweWebhooks(("anna",))],
        [DeliverWebhooks()]),
}


@pytest.mark.parametrize("case", sorted(TABLE))
def test_what_follows_a_commit(case):
    before, after, ahead, later = TABLE[case]
    assert follows(before, after) == (ahead, later)


def test_the_bots_job_is_recorded_with_the_commit_that_makes_it_due():
    assert consequences(committed(HUMAN_TO_ACT, BOT_DUE)).bots_job == "bots-g1-7"
    assert consequences(committed(BOT_DUE, BOT_DUE)).bots_job is None


def test_a_turn_told_to_every_human_whose_turn_starts_and_no_other():
    both = Position(ACTIVE, to_act=(0, 2, 3), due=AT + 60, turns_started=(0, 3))
    _, later = follows(WAITS, both, ("anna", "ben", "cid"))
    assert [each for each in later if isinstance(each, NotifyTurn)] == [
        NotifyTurn("g1", 0, 7), NotifyTurn("g1", 3, 7)]


def test_a_new_deadline_moves_the_due_time_and_the_same_one_does_not():
    earlier = Position(ACTIVE, to_act=(0,), due=AT + 3600)
    assert follows(HUMAN_STILL_TO_ACT, earlier)[0][0] == MarkDue("g1", AT + 3600)
    assert not any(isinstance(each, MarkDue) for each in follows(earlier, earlier)[0])


def test_marks_come_ahead_of_the_commit_and_deliveries_last():
    ahead, later = follows(HUMAN_TO_ACT, OVER, ("anna", "ben"))
    assert ahead[-1] == OweWebhooks(("anna", "ben"))
    assert later[-1] == DeliverWebhooks()
    assert all(not isinstance(each, (MarkDue, ArchiveGame, OweWebhooks)) for each in later)


def started(facts: Committed) -> list:
    return [each for each in consequences(facts).after if isinstance(each, NotifyStarted)]


def test_a_table_the_house_formed_tells_every_player_but_the_one_whose_turn_it_is():
    formed = Position(ACTIVE, to_act=(0,), due=AT + 60, turns_started=(0,),
                      seated={"anna": 0, "ben": 1, "cid": 2})
    facts = Committed("g1", 1, AT, None, formed, ("anna", "ben", "cid"), "anna", None)
    assert started(facts) == [NotifyStarted("g1", "ben"), NotifyStarted("g1", "cid")]


def test_the_creator_of_a_game_that_starts_at_once_is_not_told_of_it():
    bots_first = Position(ACTIVE, to_act=(1,), moves_due=(1,), levels_due=("easy",),
                          due=BOTS_NOW, seated={"anna": 0})
    facts = Committed("g1", 1, AT, None, bots_first, ("anna",), "anna", "anna")
    assert started(facts) == []


def test_the_last_seat_taken_tells_those_who_waited_and_not_who_took_it():
    waiting = Position(WAITING, seated={"anna": 0, "ben": 1})
    full = Position(ACTIVE, to_act=(1,), due=AT + 60, turns_started=(1,),
                    seated={"anna": 0, "ben": 1, "cid": 2})
    facts = Committed("g1", 5, AT, waiting, full, ("anna", "ben", "cid"), "anna")
    assert started(facts) == [NotifyStarted("g1", "anna")]


def test_a_game_going_on_tells_nobody_that_it_started():
    going = Position(ACTIVE, to_act=(1,), due=AT + 60, seated={"anna": 0, "ben": 1})
    facts = Committed("g1", 9, AT, going, going, ("anna", "ben"), "anna")
    assert started(facts) == []


@pytest.mark.parametrize("hooked, before_seated, owed", [
    # Who has a webhook is known and nobody sat down or left: only they are marked.
    (("ben",), {"anna": 0, "ben": 1}, OweWebhooks(("ben",), asks=False)),
    ((), {"anna": 0, "ben": 1}, OweWebhooks((), asks=False)),
    # Not known (never asked, or a player set a webhook since): every player is asked.
    (None, {"anna": 0, "ben": 1}, OweWebhooks(("anna", "ben"))),
    # Somebody sat down since the game last asked: every player is asked again.
    (("ben",), {"anna": 0}, OweWebhooks(("anna", "ben"))),
])
def test_a_commit_marks_only_the_players_known_to_have_a_webhook(hooked, before_seated, owed):
    after = Position(ACTIVE, to_act=(1,), due=AT + 60, seated={"anna": 0, "ben": 1})
    before = Position(ACTIVE, to_act=(0,), due=AT + 60, seated=before_seated)
    facts = Committed("g1", 9, AT, before, after, ("anna", "ben"), "anna", None, hooked)
    assert [each for each in consequences(facts).ahead
            if isinstance(each, OweWebhooks)] == [owed]
