"""`assert_tracking`: validate a session against a snapshot file, recording it by the record mode.

Its messages say what the Swift assertions say (`Sources/TracksnapTesting`), word for word
where the two do the same thing.
"""

from __future__ import annotations

import os
from typing import Dict, Iterable, List, Mapping, Optional, Union

from .client import PathLike, Session, TracksnapError

__all__ = ["assert_tracking", "record_mode", "RECORD_MODES", "RECORD_VARIABLE"]

#: As on the Swift side: `missing` records a snapshot that does not exist yet, `all` records
#: every time, `never` only validates, `failed` records when validation fails.
RECORD_MODES = ("missing", "all", "never", "failed")

#: The environment variable that sets the record mode for a whole run.
RECORD_VARIABLE = "TRACKSNAP_RECORD"


def record_mode(explicit: Optional[str] = None, environment: Optional[Mapping[str, str]] = None) -> str:
    """The record mode in force: `explicit`, else `TRACKSNAP_RECORD`, else `never` when `CI` is
    set (to anything but empty, `0`, `false` or `no`), else `missing`."""
    env = os.environ if environment is None else environment
    raw = explicit if explicit is not None else env.get(RECORD_VARIABLE, "").strip()
    if raw:
        mode = raw.strip().lower()
        if mode not in RECORD_MODES:
            raise ValueError(f"{RECORD_VARIABLE}={raw} is not a record mode; use one of {', '.join(RECORD_MODES)}")
        return mode
    return "never" if _is_ci(env) else "missing"


def _is_ci(env: Mapping[str, str]) -> bool:
    return env.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def assert_tracking(session: Session, snapshot: PathLike, *, runs: Iterable[Session] = (),
                    record: Optional[str] = None, validator: Optional[str] = None, settle: float = 0.5,
                    timeout: float = 10.0, consent: Union[str, Dict[str, str], None] = None) -> None:
    """Asserts that the session's traffic matches the snapshot file (a path under the server's
    root); the failure message is the text report, then how to accept what was captured.

    >>> assert_tracking(tracksnap_session, "snapshots/checkout.json", validator="segment")
    >>> assert_tracking(first, "snapshots/checkout.json", runs=[second])   # two runs of the flow

    The snapshot is recorded instead, by the record mode (`record`, else `TRACKSNAP_RECORD`,
    else `never` in CI and `missing` elsewhere): a missing snapshot is recorded under `missing`
    and `failed`, every run records under `all`, and `failed` records again when validation
    fails. A recording fails the test, so that the new file is looked at before it is committed.
    `runs` are sessions holding other runs of the same flow: a recording learns from all of
    them (what differs between runs is written as a matcher), and each run is validated.
    The server waits for each session's traffic first: until every expected entry is matched
    (or, when recording, until none arrived for `settle` seconds), at most `timeout` seconds.
    When the check fails and the server captured requests that no session got while a session
    was open, the message says so, and names the usual cause: an SDK client still sending to
    an earlier session's `base_url`. `consent` declares the user's choice (`"denied"`,
    `"granted"`, `"ad_storage=denied,analytics_storage=granted"` or a dict): every request is
    checked against it, over the snapshot's and the profile's `consent`.
    """
    __tracebackhide__ = True
    sessions = [session, *runs]
    failure = _check(sessions, os.fspath(snapshot), record, validator, settle, timeout, consent)
    if failure is not None:
        raise AssertionError(failure + "".join(_unattributed_notes(sessions)))


def _check(sessions: List[Session], path: str, record: Optional[str], validator: Optional[str], settle: float,
           timeout: float, consent: Union[str, Dict[str, str], None] = None) -> Optional[str]:
    """Validates or records, as the record mode says; the failure message, or None."""
    try:
        mode = record_mode(record)
    except ValueError as error:
        return f"tracksnap: {error}"
    exists = (sessions[0].server.root / path).exists()
    if mode == "never" and not exists:
        ci = record is None and not os.environ.get(RECORD_VARIABLE, "").strip()
        why = "record mode is `never` because CI is set" if ci else "record mode is `never`"
        return (f"No snapshot at {path}, and {why}. Record it locally (record mode `missing`, the default outside "
                "CI), check it, and commit it.")
    if mode == "all" or not exists:
        return _record(sessions, path, mode, validator, settle, timeout, "Re-recorded" if exists else "Recorded")
    reports = []
    for session in sessions:
        try:
            reports.append(session.validate(path, format="text", validator=validator, settle=settle, timeout=timeout,
                                            consent=consent))
        except TracksnapError as error:
            if error.status == 400:
                return f"tracksnap cannot check {path}:\n{error}"
            return f"tracksnap: cannot read session {session.id}'s requests: {error}"
    failed = [(run, report) for run, report in enumerate(reports, 1) if not report.passed]
    if not failed:
        return None
    if len(reports) == 1:
        message = f"Tracking does not match the snapshot {path}:\n\n{reports[0].text}"
    else:
        message = (f"Tracking does not match the snapshot {path} in {len(failed)} of {len(reports)} runs of the "
                   "flow:\n\n" + "\n".join(f"Run {run} of {len(reports)}:\n\n{report.text}" for run, report in failed))
    if mode == "failed":
        return message + "\n" + _record(sessions, path, mode, validator, settle, timeout, "Re-recorded")
    return message + f"\nTo accept what was captured, run the test again with {RECORD_VARIABLE}=failed."


def _record(sessions: List[Session], path: str, mode: str, validator: Optional[str], settle: float, timeout: float,
            verb: str) -> str:
    """Records the snapshot from every session's run once its traffic settled, and words the
    outcome; a run that captured nothing records nothing."""
    counts = []
    for run, session in enumerate(sessions, 1):
        try:
            count = len(session.wait(settle=settle, timeout=timeout))
        except TracksnapError as error:
            return f"tracksnap: cannot read session {session.id}'s requests: {error}"
        if count == 0:
            prefix = f"Run {run} of {len(sessions)}: " if len(sessions) > 1 else ""
            return prefix + _nothing_captured(path, session, timeout)
        counts.append(count)
    several = len(sessions) > 1
    try:
        # The traffic has settled: the server's own wait for `settle` ends at once.
        answer = sessions[0].record(path, mode="all", reruns=sessions[1:], validator=validator, settle=settle,
                                    timeout=timeout)
    except TracksnapError as error:
        runs = f" from {len(sessions)} runs" if several else ""
        return f"Could not record the snapshot {path}{runs} (record mode `{mode}`): {error}"
    if several:
        message = (f"{verb} the snapshot {path} from {len(sessions)} runs of the flow "
                   f"({', '.join(map(str, counts))} captured requests; record mode `{mode}`); {_expects(answer)}.")
        message += "".join(f" {line}." for line in _generalized_summary(answer.get("generalized") or []))
    else:
        message = (f"{verb} the snapshot {path} from {_count(counts[0], 'captured request')} "
                   f"(record mode `{mode}`); {_expects(answer)}.")
    return message + " Check it, commit it, and run the test again."


def _expects(answer: dict) -> str:
    """What a recorded snapshot lists: `it expects 2 events`, `it expects nothing` (the
    profile selected none of the traffic)."""
    entries = [_count(answer[key], key[:-1]) for key in ("events", "requests") if answer.get(key)]
    return "it expects " + (" and ".join(entries) or "nothing")


def _nothing_captured(path: str, session: Session, timeout: float) -> str:
    """Why a session that holds nothing is not recorded: an empty snapshot would pass on every
    later run while checking nothing."""
    return (f"Captured no request, so the snapshot {path} was not recorded: an empty snapshot would pass on every "
            f"later run while checking nothing. Check that the app sends to the session's base URL "
            f"({session.base_url}) or with its X-Tracksnap-Session header ({session.id}), and that the flow sends "
            f"before the assertion's timeout ({timeout:g} s).")


def _unattributed_notes(sessions: List[Session]) -> List[str]:
    """What a failure adds for each session while which requests went astray: none when none did."""
    notes = []
    for run, session in enumerate(sessions, 1):
        try:
            count = session.unattributed()
        except TracksnapError:
            continue  # the session is gone; the failure already says what went wrong
        if count:
            prefix = f"Run {run}: " if len(sessions) > 1 else ""
            notes.append(
                f"\n\n{prefix}While session {session.id} was open, the server captured {_count(count, 'request')} "
                "that no session got: sent without a session hint while several sessions were open, or naming a "
                "session that was not open. A common trap is a stale session URL: an SDK client created once (at "
                "import, on the first call of the SDK's module-level API, or in a fixture of wider scope) with an "
                "earlier session's base_url keeps sending there after that session stopped; create it in each test from the session's base_url. "
                f"Send X-Tracksnap-Session: {session.id}, or point the app at {session.base_url}.")
    return notes


def _generalized_summary(generalized: List[dict], limit: int = 10) -> List[str]:
    """What a recording wrote other than as captured, a line each, as the Swift side words it
    (`Generalization.summary`): the values recorded as patterns, the environment fields left
    out, and the order when it is `any`."""
    def listed(items: List[str]) -> str:
        return ", ".join(items[:limit]) + (f", and {len(items) - limit} more" if len(items) > limit else "")

    environment = [item["path"] for item in generalized if item["reason"] == "environment"]
    order = [item for item in generalized if item["path"] == "/order"]
    patterns = [f"{item['path']} ({item['reason']})" for item in generalized
                if item["reason"] != "environment" and item["path"] != "/order"]
    lines = []
    if patterns:
        lines.append(f"{_count(len(patterns), 'value')} recorded as patterns: {listed(patterns)}")
    if environment:
        lines.append(f"{_count(len(environment), 'environment field')} left out: {listed(environment)}")
    lines += [f'"order": "any" ({item["reason"]})' for item in order]
    return lines


def _count(number: int, noun: str) -> str:
    """`1 request`, `2 requests`, `0 events`."""
    return f"{number} {noun}{'' if number == 1 else 's'}"
