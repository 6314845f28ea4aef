"""`assert_tracking`: validate a session against a snapshot file, recording it by the record mode."""

from __future__ import annotations

import os
from typing import Mapping, Optional

from .client import PathLike, Session, TracksnapError

__all__ = ["assert_tracking", "record_mode", "RECORD_MODES"]

#: As on the Swift side: `missing` records a snapshot that does not exist yet, `all` records
#: every time, `never` only validates, `failed` records when validation fails.
RECORD_MODES = ("missing", "all", "never", "failed")


def record_mode(explicit: Optional[str] = None, environment: Optional[Mapping[str, str]] = None) -> str:
    """The record mode in force: `explicit`, else `TRACKSNAP_RECORD`, else `never` when `CI` is
    set (to anything but empty, `0`, `false` or `no`), else `missing`."""
    env = os.environ if environment is None else environment
    raw = explicit if explicit is not None else env.get("TRACKSNAP_RECORD", "").strip()
    if raw:
        mode = raw.strip().lower()
        if mode not in RECORD_MODES:
            raise ValueError(f"TRACKSNAP_RECORD={raw} is not a record mode; use one of {', '.join(RECORD_MODES)}")
        return mode
    return "never" if _is_ci(env) else "missing"


def _is_ci(env: Mapping[str, str]) -> bool:
    return env.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def assert_tracking(session: Session, snapshot: PathLike, *, record: Optional[str] = None,
                    validator: Optional[str] = None, settle: float = 0.5, timeout: float = 10.0) -> None:
    """Asserts that the session's traffic matches the snapshot file (a path under the server's
    root); the failure message is the text report.

    The snapshot is recorded instead, by the record mode (`record`, else `TRACKSNAP_RECORD`,
    else `never` in CI and `missing` elsewhere): a missing snapshot is recorded under `missing`
    and `failed`, every run records under `all`, and `failed` records again when validation
    fails. A recording fails the test, so that the new file is looked at before it is committed.
    The server waits for the traffic first: until every expected entry is matched (or, when
    recording, until none arrived for `settle` seconds), at most `timeout` seconds.
    """
    __tracebackhide__ = True
    try:
        mode = record_mode(record)
    except ValueError as error:
        raise AssertionError(f"tracksnap: {error}") from None
    path = os.fspath(snapshot)
    exists = (session.server.root / path).exists()
    if mode == "never" and not exists:
        why = "record mode is `never` because CI is set" if record is None and not os.environ.get("TRACKSNAP_RECORD") else "record mode is `never`"
        raise AssertionError(
            f"No snapshot at {path}, and {why}. Record it locally (record mode `missing`, the default outside CI), "
            "check it, and commit it.")
    if mode == "all" or not exists:
        raise AssertionError(_record(session, path, mode, validator, settle, timeout, "Re-recorded" if exists else "Recorded"))
    try:
        report = session.validate(path, format="text", validator=validator, settle=settle, timeout=timeout)
    except TracksnapError as error:
        raise AssertionError(f"tracksnap: {error}") from None
    if report.passed:
        return
    message = report.text.rstrip("\n")
    if mode == "failed":
        message += "\n" + _record(session, path, mode, validator, settle, timeout, "Re-recorded")
    raise AssertionError(message)


def _record(session: Session, path: str, mode: str, validator: Optional[str], settle: float, timeout: float,
            verb: str) -> str:
    """Records the snapshot and words the outcome."""
    try:
        answer = session.record(path, mode="all", validator=validator, settle=settle, timeout=timeout)
    except TracksnapError as error:
        return f"Could not record the snapshot {path} (record mode `{mode}`): {error}"
    what = ", ".join(f"{answer[key]} {key}" for key in ("events", "requests") if answer.get(key))
    return (f"{verb} the snapshot {answer.get('file', path)} ({what or 'nothing'}) from session {session.id} "
            f"(record mode `{mode}`). Check it, commit it, and run the test again.")
