"""A bounded property-based run over every operation of the served spec, with every check:
no server error, and every answer in the documented status, type, headers and schema."""
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings

from bench.fuzz import with_game_links


# Schema-valid requests may still break a rule no schema can state (seats must number the
# players, a push key must be a point on P-256, a sign-in code must exist): the API answers
# those 422 with its reason, so 422 counts as a fitting answer to valid data too.
# A schema-valid request may still meet the state: a stale version (409), an `If-Match` that no
# longer holds the game's ETag (412).
# An event stream is read for its first two events (the heartbeats come every 0.2 s here), not
# schemathesis's default of many events or seconds a case.
CONFIG = schemathesis.Config.from_dict({"max-stream-events": 2, "checks": {"positive_data_acceptance": {
    "expected-statuses": ["2xx", "3xx", "401", "403", "404", "409", "412", "422", "429"]}}})


@pytest.fixture
def served_spec(app):
    # A stream's answer ends where its first heartbeat finds the test client's request over:
    # soon, rather than 10-20 s into each case.
    app.config["STREAM_HEARTBEAT"] = 0.2
    return schemathesis.openapi.from_wsgi("/api/openapi.json", app, config=CONFIG)


schema = schemathesis.pytest.from_fixture("served_spec")


@pytest.fixture
def bearer(client):
    token = client.post("/api/v1/players", json={"name": "Fuzz"}).get_json()["token"]
    return {"Authorization": f"Bearer {token}"}


@schema.parametrize()
@settings(max_examples=4, deadline=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(case, bearer):
    case.call_and_validate(headers=bearer)


@pytest.fixture
def playable_spec(app):
    """The served spec with the links that let schemathesis play (`bench.fuzz`)."""
    app.config["STREAM_HEARTBEAT"] = 0.2
    spec = app.test_client().get("/api/openapi.json").get_json()
    schema = schemathesis.openapi.from_dict(with_game_links(spec), config=CONFIG)
    schema.app = app
    return schema


def test_authenticated_call_sequences_follow_the_links_and_answer_as_documented(playable_spec):
    """Schemathesis's stateful phase with a player's token: it chains the operations its links
    connect (a game made, then acted on, talked at, resigned), every answer checked."""
    seen = []
    # The operations on games only: among every operation of the API, a few sequences seldom
    # make a game at all (`bench.fuzz` runs them all).
    games = playable_spec.include(path_regex=r"^/api/v1/games")

    class Player(games.as_state_machine()):
        def setup(self):
            # A player of its own each sequence (one may sign its device out), made by the
            # domain: the registering budget is not what this test spends.
            token = playable_spec.app.extensions["poyta"].players.create("Fuzz").token
            self.bearer = {"Authorization": f"Bearer {token}"}

        def get_call_kwargs(self, case):
            return {"headers": self.bearer}

        def after_call(self, response, case):
            super().after_call(response, case)
            seen.append((case.method, case.operation.path, response.status_code))

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            # The token is sent as a header of the call: the checks are told, so that one
            # generated without a valid token does not take the answer for a lapse of auth.
            case.validate_response(response, headers=self.bearer, recorder=self.recorder,
                                   transport_kwargs=kwargs or None)

    Player.run(settings=settings(max_examples=8, stateful_step_count=6, deadline=None,
                                 derandomize=True,
                                 suppress_health_check=list(HealthCheck)))
    assert seen and all(status < 500 for *_, status in seen)
    made = [status for method, path, status in seen if (method, path) == ("POST", "/api/v1/games")]
    assert 201 in made, f"no game made: {seen}"
    assert any("{game_id}" in path and status not in (401, 404) for _, path, status in seen), \
        f"no call reached a game the sequence made: {seen}"
