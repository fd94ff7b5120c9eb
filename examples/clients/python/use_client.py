"""What an integrator does with a Python client that openapi-python-client generated from the
contract the mock serves: get a trial key and meet its 402 on the changes feed, page a list by its
cursor to the end, read the feed with a paid key from a timezone-aware `since` (the client writes
it with `+00:00`), and burst above a plan's rate into a 429 whose Retry-After it reads.

Run by ../generated-clients.test.ts with the generated package importable (PYTHONPATH) and
INVESTOR_GRAPH_URL, PAID_KEY and BURST_KEY set; prints what it saw as one JSON object. Every call
goes through the generated functions, never through httpx directly.
"""

import datetime
import json
import os
import uuid

from investor_graph_client import AuthenticatedClient, Client
from investor_graph_client.api.changes import list_changes
from investor_graph_client.api.firms import list_firms
from investor_graph_client.api.keys import create_trial_key
from investor_graph_client.models import ChangePage, FirmPage, ProblemWithActions, TrialKey, TrialKeyRequest

base_url = os.environ["INVESTOR_GRAPH_URL"]
since = datetime.datetime(2026, 11, 1, tzinfo=datetime.UTC)
sent = []  # every URL the client sent, as it went on the wire


def remember(request):
    sent.append(str(request.url))


def client(token=None):
    hooks = {"event_hooks": {"request": [remember]}}
    if token is None:
        return Client(base_url=base_url, httpx_args=hooks)
    return AuthenticatedClient(base_url=base_url, token=token, httpx_args=hooks)


def trial_feed():
    """A trial key from the open call, then the feed with it: a 402 with actions."""
    issued = create_trial_key.sync_detailed(client=client(), body=TrialKeyRequest(email=f"python-client-{uuid.uuid4().hex[:12]}@example.com"))
    assert isinstance(issued.parsed, TrialKey), issued.content
    refused = list_changes.sync_detailed(client=client(issued.parsed.key), since=since)
    problem = refused.parsed
    assert isinstance(problem, ProblemWithActions), refused.content
    return {"plan": str(issued.parsed.plan), "status": refused.status_code.value, "code": problem.code, "actions": [str(a.type_) for a in problem.actions]}


def all_firms(paid):
    """Every firm, page by page, following next_cursor until it is null."""
    slugs, pages, cursor = [], 0, None
    while True:
        page = list_firms.sync(client=paid, limit=30, **({"cursor": cursor} if cursor else {}))
        assert isinstance(page, FirmPage), page
        pages += 1
        slugs += [firm.slug for firm in page.data]
        cursor = page.next_cursor
        if cursor is None:
            return {"pages": pages, "slugs": slugs}


def feed(paid):
    """The whole changes feed from `since`, page by page."""
    sequences, cursor = [], None
    while True:
        answer = list_changes.sync_detailed(client=paid, since=since, limit=40, **({"cursor": cursor} if cursor else {}))
        assert isinstance(answer.parsed, ChangePage), f"{answer.status_code.value}: {answer.content.decode()}"
        sequences += [change.sequence for change in answer.parsed.data]
        cursor = answer.parsed.next_cursor
        if cursor is None:
            return {"sequences": sequences, "urls": [url for url in sent if "/api/v1/changes" in url]}


def burst(key):
    """Calls as fast as the client goes until the rate answers 429; its Retry-After as the client reads it."""
    limited = client(key)
    for calls in range(1, 201):
        answer = list_firms.sync_detailed(client=limited, limit=1)
        if answer.status_code.value == 429:
            assert isinstance(answer.parsed, ProblemWithActions), answer.content
            return {"calls": calls, "retry_after": answer.headers.get("retry-after"), "code": answer.parsed.code}
    return {"calls": calls, "retry_after": None, "code": None}


def each(step, *args):
    """One step's result, or what went wrong in it: a failed step does not hide the others."""
    try:
        return step(*args)
    except Exception as error:  # noqa: BLE001 - reported to the test, which fails on it
        return {"error": f"{type(error).__name__}: {error}"}


paid = client(os.environ["PAID_KEY"])
print(json.dumps({"trial": each(trial_feed), "firms": each(all_firms, paid), "feed": each(feed, paid), "burst": each(burst, os.environ["BURST_KEY"])}))
