"""The plugin as a user's suite uses it: the vendors' official Python SDKs send to a session,
`assert_tracking` records on the first run, validates the next run, and fails on a real change
with the text report. Each run is a pytest of its own (its own `tracksnap serve`, on another port)."""

import os
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[3] / "Tests" / "SDKs"
# The keys the scripts give the SDKs: never written to a snapshot.
KEYS = {"segment": "wk_test_e2e_segment", "rudderstack": "wk_test_e2e_rudder", "mixpanel": "mp_token_test_e2e",
        "amplitude": "amp_key_test_e2e", "posthog": "phc_test_e2e_key"}

SUITE = f'''
import os, subprocess, sys
import pytest
from tracksnap import assert_tracking

@pytest.mark.parametrize("vendor", {sorted(KEYS)!r})
def test_sdk(tracksnap_session, vendor):
    change = [os.environ["CHANGE"]] if vendor == "segment" and os.environ.get("CHANGE") else []
    script = os.path.join({str(SCRIPTS)!r}, "send_" + vendor + ".py")
    subprocess.run([sys.executable, script, tracksnap_session.base_url, *change], check=True, timeout=120)
    assert_tracking(tracksnap_session, "snapshots/" + vendor + ".json", validator=vendor)
'''


@pytest.fixture
def suite(pytester, monkeypatch):
    for name in ("CI", "TRACKSNAP_RECORD", "CHANGE", "TRACKSNAP_URL"):
        monkeypatch.delenv(name, raising=False)
    assert os.environ.get("TRACKSNAP_BIN"), "TRACKSNAP_BIN must name the tracksnap binary (make test sets it)"
    pytester.makepyfile(test_app=SUITE)
    return pytester


def run(pytester, *args):
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args, timeout=600)


def test_record_validate_change_and_ci(suite, monkeypatch):
    # Run 1 records every snapshot, and fails so that they are looked at.
    first = run(suite)
    first.assert_outcomes(failed=len(KEYS))
    for vendor, key in KEYS.items():
        first.stdout.fnmatch_lines([f"*Recorded the snapshot snapshots/{vendor}.json from * captured request* "
                                    "(record mode `missing`); it expects * event*"])
        text = (suite.path / "snapshots" / f"{vendor}.json").read_text()
        assert '"events"' in text, text
        assert key not in text, f"{vendor}'s key was written to its snapshot"

    # Run 2: another server on another port, new message ids and times; the snapshots hold.
    run(suite).assert_outcomes(passed=len(KEYS))

    # Run 3: a later release renames an event; the failure message is the text report.
    monkeypatch.setenv("CHANGE", "rename")
    changed = run(suite, "-k", "segment")
    changed.assert_outcomes(failed=1)
    out = changed.stdout.str()
    assert "snapshots/segment.json) — 4 expected, 4 events captured in 1 request, 1 finding" in out, out
    assert '/name  "Order Completed"  "Order Complete"  value_mismatch  line ' in out, out
    monkeypatch.delenv("CHANGE")

    # In CI a missing snapshot fails and is not recorded.
    (suite.path / "snapshots" / "posthog.json").unlink()
    monkeypatch.setenv("CI", "true")
    ci = run(suite, "-k", "posthog")
    ci.assert_outcomes(failed=1)
    ci.stdout.fnmatch_lines(["*No snapshot at snapshots/posthog.json, and record mode is `never` because CI is set*"])
    assert not (suite.path / "snapshots" / "posthog.json").exists()

    # TRACKSNAP_RECORD=all records again, CI or not.
    monkeypatch.setenv("TRACKSNAP_RECORD", "all")
    again = run(suite, "-k", "amplitude")
    again.assert_outcomes(failed=1)
    again.stdout.fnmatch_lines(["*Re-recorded the snapshot snapshots/amplitude.json*(record mode `all`)*"])
