"""Schemathesis hooks for `check_control_api.py`: the waits calls ask for are kept short.

The control API waits as long as a call asks (up to 300 s), and a call that asks to wait without
a timeout waits its default (30 s for a session's requests; 10 s for `validate` and `record`,
which always wait unless told `"settle": 0`) for traffic that never comes to an empty session:
valid calls that would stall the run. Before every call, in every phase, a number of seconds
above half a second becomes half a second, and a wait without a timeout gets one of half a
second. Everything else (wrong types, negative numbers, unknown fields) is sent as generated, for
the server to refuse. A `validate` or `record` that names no wait at all gets a timeout of a
tenth of a second: their default waits would otherwise add half a second to each of hundreds of
calls, and a session emptied by `reset` would hold one for 10 s (a `record` sent without a body
gets a body with that timeout). A session started is sent traffic (`after_call`).
"""

import json
import urllib.parse
import urllib.request

import schemathesis
from schemathesis.core import NotSet

LONGEST = 0.5
# The timeout of a validate or record call that names no wait (see the docstring).
UNASKED = 0.1


def shortened(value):
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return value
    try:
        seconds = float(value)
    except ValueError:
        return value
    return LONGEST if seconds > LONGEST else value


def shorten(fields, waiting, unasked=None):
    for field in ("timeout", "settle"):
        if field in fields:
            fields[field] = shortened(fields[field])
    # A null field is one left out.
    if fields.get("timeout") is None:
        if any(fields.get(field) is not None for field in waiting):
            fields["timeout"] = LONGEST
        elif unasked is not None:
            fields["timeout"] = unasked


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    if isinstance(case.query, dict):
        shorten(case.query, ("count", "events", "settle"))
    # validate and record wait even when the body names no wait.
    waits = case.method.upper() == "POST" and case.path.endswith(("/validate", "/record"))
    if isinstance(case.body, dict):
        shorten(case.body, ("settle",), unasked=UNASKED if waits else None)
    elif waits and isinstance(case.body, NotSet):
        case.body = {"timeout": UNASKED}
        case.media_type = "application/json"


@schemathesis.hook
def after_call(ctx, case, response):
    """A session started is sent one event at once, as an app under test would, so that the
    session's requests, validation and recording answer with what they hold, not only with
    "captured no request"."""
    if case.method.upper() != "POST" or case.path != "/__tracksnap/sessions" or response.status_code != 201:
        return
    parts = urllib.parse.urlsplit(response.request.url)
    session = json.loads(response.content)["id"]
    event = json.dumps({"event": "Order Completed", "writeKey": "wk_schemathesis_123"}).encode()
    # Addressed to a vendor's host, as an app's collector traffic is: a snapshot recorded from
    # traffic to the server's own origin holds a URL pattern (`http://(127\.…|\[::1\]):…`)
    # that schemathesis 4.32.5's scan of answers for links cannot parse, and it stops the run.
    request = urllib.request.Request(
        f"{parts.scheme}://{parts.netloc}/v1/t", data=event, method="POST",
        headers={"Content-Type": "application/json", "Host": "collect.example", "X-Tracksnap-Session": session})
    with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(request, timeout=10) as answer:
        answer.read()
