"""The one webhook pipeline: a POST to a URL a user gave, and what its answer means. Its two
sinks are a game's webhook (a chat channel told whose turn it is: `api.tables.notices`) and a
player's Standard Webhook (their event stream: `api.tables.webhooks`).

The rules, here once for both:

* Every request goes through `api.outbound`: never to an internal address, no redirect, short
  time-outs. A destination it refuses is dropped for good.
* A 2xx answer is delivered. Network errors, time-outs, 429 and 5xx are transient: the sink
  tries again later (RQ's retry, `api.storage.jobs.RETRY`, then the sink's sweeper where it
  has one). Any other answer (3xx, other 4xx) is dropped for good: retrying would not help.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass

from api import outbound

log = logging.getLogger(__name__)

DELIVERED, DROPPED, RETRYING = "delivered", "dropped", "retrying"


def transient_status(status: int | None) -> bool:
    return status is None or status == 429 or status >= 500


@dataclass(frozen=True)
class Delivery:
    outcome: str               # DELIVERED, DROPPED or RETRYING
    status: int | None = None  # the receiver's answer, None when none came
    error: str | None = None   # what went wrong, in words


def post(url: str, policy: outbound.Policy, what: str, **request) -> Delivery:
    """POST to `url` (`request`: `json=`, or `data=` and `headers=`); `what` names the
    delivery in the log."""
    try:
        answer = outbound.post(url, policy, **request)
    except outbound.Refused as error:
        log.error("%s to %s refused: %s", what, url, error)
        return Delivery(DROPPED, None, str(error))
    except outbound.Unreachable as error:
        log.warning("%s to %s unreachable, will retry: %s", what, url, error)
        return Delivery(RETRYING, None, str(error))
    status = answer.status_code
    if 200 <= status < 300:
        return Delivery(DELIVERED, status)
    if transient_status(status):
        log.warning("%s to %s answered %s, will retry", what, url, status)
        return Delivery(RETRYING, status, f"the receiver answered {status}")
    log.error("%s to %s refused (%s): %s", what, url, status, answer.text[:200])
    return Delivery(DROPPED, status, f"the receiver answered {status}")
