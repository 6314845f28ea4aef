"""Schemathesis hooks for `check_control_api.py`: the waits calls ask for are kept short.

The control API waits as long as a call asks (up to 300 s), and a call that asks to wait without
a timeout waits the default 30 s for traffic that never comes to an empty session: valid calls
that would stall the run. Before every call, in every phase, a number of seconds above half a
second becomes half a second, and a wait without a timeout gets one of half a second.
Everything else (wrong types, negative numbers, unknown fields) is sent as generated, for the
server to refuse.
"""

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
