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

The files calls name are made to exist, so that the calls reach what they do rather than its 404: a
generated `snapshot` path becomes a `.json` path every other call (`../x` becomes `../x.json`,
which the server must refuse as outside the root; `record` writes there), and when such a path lies
under the root, the file a call reads is planted first: the snapshot `validate` checks, the profile
(`validator`) and tracking plans (`plan`) `validate` and `record` read, the pending recording
(`X.new.json`) `accept` moves or `reject` deletes, and the cassette a session is started with
(which record mode `never` refuses when it is not there); every third planted file is broken.
schemathesis runs in the root.
"""

import collections
import itertools
import json
import os
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


# What a planted snapshot holds: the one check_control_api.py writes, the event after_call sends.
SNAPSHOT = {"requests": [{"method": "POST", "url": {"$regex": ".*/v1/t"}, "body": {"event": "Order Completed"}}]}
# What a planted profile and tracking plan hold: the planted snapshot's traffic passes both.
PROFILE = {"filter": {"path": {"$regex": "/v1/.*"}}}
PLAN = {"plan": 1, "events": [{"type": "track", "name": "Order Completed", "schema": {"type": "object"}}]}
# What a planted cassette holds: none of the requests a session is sent, which its mode decides about.
CASSETTE = {"cassette": 1, "interactions": []}
# How many times each operation has met each choice below: every other path made `.json`, every
# third planted file broken, counted per operation, so that no operation's calls fall on the same
# side of a choice every time (accept must still meet files it can move).
TURNS = collections.Counter()


def turn(operation, choice, every):
    """True on every `every`-th time OPERATION meets CHOICE."""
    TURNS[operation, choice] += 1
    return TURNS[operation, choice] % every == 0


def under_root(path):
    """PATH resolved under the root (the working directory), or None when it lies outside or cannot be a file name."""
    if "\0" in path or len(path.encode("utf-8", "surrogatepass")) > 1024:
        return None
    root = os.path.realpath(os.getcwd())
    try:
        resolved = os.path.realpath(os.path.join(root, path))
    except (ValueError, UnicodeError):  # A lone surrogate: no file name.
        return None
    return resolved if resolved.startswith(root + os.sep) else None


# What a broken planted file holds, in turn: cut short, or of the wrong shape. The server's
# answer to a file it cannot read is held to the description too.
BROKEN = itertools.cycle(['{"requests": [', "[1, 2]"])


def plant(operation, path, content, replacing=False):
    """Writes CONTENT at PATH under the root when the path lies there and holds nothing yet (or,
    `replacing`, a regular file: a pending recording planted before, which a broken one that
    `accept` refused would otherwise stay for every later call naming it); every third file an
    operation plants is broken instead."""
    resolved = under_root(path)
    if resolved is None or (os.path.lexists(resolved) and not (replacing and os.path.isfile(resolved))):
        return
    broken = next(BROKEN) if turn(operation, "broken", 3) else None
    try:
        os.makedirs(os.path.dirname(resolved), exist_ok=True)
        with open(resolved, "w", encoding="utf-8") as file:
            file.write(broken if broken is not None else json.dumps(content))
    except (OSError, UnicodeError):
        pass  # A name the file system refuses: the call is sent as generated.


def as_json_path(operation, path):
    """PATH, given `.json` every other time OPERATION meets one without it; None for a path that
    is no string. An empty path stays empty: the description refuses it (`minLength`), and a
    negative case sent with it must still be one. Otherwise the suffix can make a valid case
    invalid (`record`'s snapshot may not end in `.new.json`), which the server must then refuse,
    but never an invalid one valid: these fields' other constraints are their type and that
    pattern."""
    if not isinstance(path, str):
        return None
    if not path or path.endswith(".json"):
        return path
    return path + ".json" if turn(operation, "json", 2) else path


def name_files(case):
    """Makes the files a `validate`, `record`, `accept`, `reject` or session call names exist: `.json` paths
    every other call, and under the root what the call reads planted (see the docstring)."""
    if case.method.upper() != "POST" or not isinstance(case.body, dict):
        return
    body = case.body
    operation = case.path.rsplit("/", 1)[-1]
    if operation == "sessions":
        if (path := as_json_path(operation, body.get("cassette"))) is not None:
            body["cassette"] = path
            if path.endswith(".json"):
                plant(operation, path, CASSETTE)
        return
    pending = operation in ("accept", "reject")
    if not (pending or operation in ("validate", "record")):
        return
    if (path := as_json_path(operation, body.get("snapshot"))) is not None:
        body["snapshot"] = path
        if path.endswith(".json") and pending:
            pending_path = path if path.endswith(".new.json") else path[: -len(".json")] + ".new.json"
            plant(operation, pending_path, SNAPSHOT, replacing=True)
        elif path.endswith(".json") and operation == "validate":
            plant(operation, path, SNAPSHOT)
    if pending:
        return
    # A profile file, and the tracking plans a validation also checks against.
    if (path := as_json_path(operation, body.get("validator"))) is not None:
        body["validator"] = path
        if path.endswith(".json"):
            plant(operation, path, PROFILE)
    plans = body.get("plan")
    if isinstance(plans, (str, list)):
        named = [as_json_path(operation, plan) for plan in (plans if isinstance(plans, list) else [plans])]
        for plan in named:
            if plan is not None and plan.endswith(".json"):
                plant(operation, plan, PLAN)
        if all(plan is not None for plan in named):
            body["plan"] = named if isinstance(plans, list) else named[0]


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    name_files(case)
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
    "captured no request". Each call's operation and status are appended to $TRACKSNAP_CALLS,
    for check_control_api.py to see that the calls reached what they do."""
    calls = os.environ.get("TRACKSNAP_CALLS")
    if calls:
        with open(calls, "a", encoding="utf-8") as file:
            file.write(f"{case.method.upper()} {case.operation.path} {response.status_code}\n")
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
