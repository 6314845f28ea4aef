"""Schemathesis hooks for `check_control_api.py`: the waits calls ask for are kept short.

The control API waits as long as a call asks (up to 300 s), and a call that asks to wait without
a timeout waits the default 30 s for traffic that never comes to an empty session: valid calls
that would stall the run. Before every call, in every phase, a number of seconds above half a
second becomes half a second, and a wait without a timeout gets one of half a second.
Everything else (wrong types, negative numbers, unknown fields) is sent as generated, for the
server to refuse. A session started is sent traffic (`after_call`).
"""

import json
import urllib.parse
import urllib.request

import schemathesis

LONGEST = 0.5


def shortened(value):
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return value
    try:
        seconds = float(value)
    except ValueError:
        return value
    return LONGEST if seconds > LONGEST else value


def shorten(fields, waiting):
    for field in ("timeout", "settle"):
        if field in fields:
            fields[field] = shortened(fields[field])
    # A null field is one left out.
    if any(fields.get(field) is not None for field in waiting) and fields.get("timeout") is None:
        fields["timeout"] = LONGEST


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    if isinstance(case.query, dict):
        shorten(case.query, ("count", "events", "settle"))
    if isinstance(case.body, dict):
        shorten(case.body, ("settle",))


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
