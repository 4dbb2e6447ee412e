"""A bounded property-based run over every operation of the served spec, with every check:
no server error, and every answer in the documented status, type, headers and schema."""
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings


# Schema-valid requests may still break a rule no schema can state (seats must number the
# players, a push key must be a point on P-256, a sign-in code must exist): the API answers
# those 422 with its reason, so 422 counts as a fitting answer to valid data too.
CONFIG = schemathesis.Config.from_dict({"checks": {"positive_data_acceptance": {
    "expected-statuses": ["2xx", "3xx", "401", "403", "404", "409", "422", "429"]}}})


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
