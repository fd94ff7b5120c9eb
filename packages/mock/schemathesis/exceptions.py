"""The one list of Schemathesis failures the kit accepts from its mock, each with its reason.

schemathesis.toml loads this file as Schemathesis's hooks; schemathesis.test.ts runs Schemathesis
against the mock with every phase and every check, and fails on any failure not excused here. An
exception is a decision of contracts/DECISIONS.md that Schemathesis cannot know from the contract
alone, never a bug of the mock: a bug is fixed in the mock.

Each exception is as narrow as its reason: it names the check, the status and the problem code,
and judges the request itself (a cursor is excused only when the mock never issued it for that
operation and those filters), so the same failure for any other cause still fails the run.
"""

import schemathesis

# Query parameters a cursor is bound to besides its operation and path (DECISIONS.md#cursor).
CURSOR_FILTERS = ("announced_since", "since", "include")

# Every next_cursor the mock issued in this run, with what it was issued for.
issued: dict[str, tuple] = {}


def binding(case) -> tuple:
    """The operation, path and filters a cursor sent with this request would have to be issued for."""
    query = case.query or {}
    filters = tuple(sorted((name, str(query[name])) for name in CURSOR_FILTERS if name in query))
    return (case.operation.label, tuple(sorted((case.path_parameters or {}).items())), filters)


def member(response, name: str):
    """A member of the JSON object the response holds, or None (no JSON, or not an object)."""
    try:
        body = response.json()
    except Exception:
        return None
    return body.get(name) if isinstance(body, dict) else None


@schemathesis.hook
def after_call(context, case, response):
    """Remembers each cursor the mock issues, and for which request, for the exception below."""
    cursor = member(response, "next_cursor")
    if isinstance(cursor, str):
        issued[cursor] = binding(case)


def unissued_cursor(failure, case, response) -> bool:
    """ST202 on a cursor the mock never issued for this request: a 400 invalid_cursor by design.

    DECISIONS.md#cursor: a cursor is opaque and tamper-evident, bound to the operation and filters
    it was issued for. The contract can only say it is a string, so Schemathesis takes any string
    (and any issued cursor sent with other filters, which its stateful phase does when it explores
    a parameter instead of following the NextPage link) as valid data. A cursor the mock did issue
    for exactly this operation, path and filters and still refuses is not excused.
    """
    if getattr(failure, "code", None) != "ST202" or response.status_code != 400:
        return False
    if member(response, "code") != "invalid_cursor":
        return False
    cursor = (case.query or {}).get("cursor")
    return not (isinstance(cursor, str) and issued.get(cursor) == binding(case))


def rejected_as_too_large(failure, case, response) -> bool:
    """ST201 answered 413 payload_too_large or 414 uri_too_long: the invalid data was rejected.

    Schemathesis counts only 400, 401, 403, 404, 405, 406, 409, 415, 422, 428 and 429 as a
    rejection. A fuzzed body or query can be larger than the mock takes (DECISIONS.md#status-codes:
    a trial body over 4 KiB is a 413, a URL over 8 KiB a 414, both in the contract), and then the
    size is refused before the content is read: a rejection all the same.
    """
    if getattr(failure, "code", None) != "ST201":
        return False
    return (response.status_code, member(response, "code")) in ((413, "payload_too_large"), (414, "uri_too_long"))


EXCEPTIONS = (unissued_cursor, rejected_as_too_large)


@schemathesis.hook
def filter_failure(context, failure, case, response) -> bool:
    """Keeps every failure but those an exception above excuses."""
    return not any(excused(failure, case, response) for excused in EXCEPTIONS)
