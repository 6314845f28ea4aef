"""The pytest example of tracksnap's front page (README.md, "A pytest test"), run as the page says a
user runs it: the first run records the snapshot the guide (Documentation/Python.md) shows and
fails, the next passes, another currency fails with the report's line, and the failure says how to
accept it. The guide's copy of the example is the page's. And the front page's curl session
(README.md, "A curl session"), run by bash against a real server."""

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tracksnap import Tracksnap

REPOSITORY = Path(__file__).resolve().parents[3]


def fenced(page, language, after):
    """The first ```language block of a page after the line that ends with `after`."""
    text = (REPOSITORY / page).read_text()
    start = text.index(after)
    return re.search(r"^```%s\n(.*?)^```$" % language, text[start:], re.S | re.M).group(1)


@pytest.fixture
def suite(pytester, monkeypatch):
    for name in ("CI", "TRACKSNAP_RECORD", "TRACKSNAP_URL", "TRACKSNAP_TOKEN", "CURRENCY"):
        monkeypatch.delenv(name, raising=False)
    return pytester


def run(pytester, *args):
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args, timeout=300)


def test_the_front_pages_pytest_example_records_passes_then_reports_a_change(suite, monkeypatch):
    example = fenced("README.md", "python", "`tests/test_checkout.py`:")
    assert example == fenced("Documentation/Python.md", "python", "`tests/test_checkout.py`:")
    (suite.path / "tests").mkdir()
    (suite.path / "tests" / "test_checkout.py").write_text(example)

    first = run(suite)
    first.assert_outcomes(failed=1)
    first.stdout.fnmatch_lines(["*Recorded the snapshot snapshots/checkout.json from 2 captured requests "
                                "(record mode `missing`); it expects 2 events. Check it, commit it, *"])
    shown = fenced("Documentation/Python.md", "text", "a change\nfails with the text report:")
    recorded = shown.split("$ cat snapshots/checkout.json\n", 1)[1].split("$ pytest -q\n", 1)[0]
    assert (suite.path / "snapshots" / "checkout.json").read_text().strip() == recorded.strip()

    run(suite).assert_outcomes(passed=1)

    monkeypatch.setenv("CURRENCY", "USD")
    changed = run(suite)
    changed.assert_outcomes(failed=1)
    changed.stdout.fnmatch_lines([
        '*/properties/currency  "EUR"     "USD"   value_mismatch  line 14',
        "*To accept what was captured, run the test again with TRACKSNAP_RECORD=failed.",
    ])


def test_the_front_pages_curl_session_answers_as_shown(tmp_path):
    """README.md, "A curl session": each command run by bash against a real `tracksnap serve`
    started as its first line says, its answer the `# ` lines under it (the page's port and root
    replaced by the server's); a comment that ends with a colon introduces the next command."""
    lines = fenced("README.md", "sh", "the same control API (`Schemas/control-api.openapi.json`):")
    serve, *session = lines.rstrip("\n").split("\n")
    started = re.fullmatch(r"tracksnap serve --port 0 --root (\S+) --quiet &\s+# listening on (\S+)", serve)
    assert started, f"the session's first line is not the server Tracksnap.start runs: {serve}"
    shown_root, shown_url = started.groups()
    root = tmp_path / "shop"
    # The snapshot the pytest example records (Documentation/Python.md shows it).
    shown = fenced("Documentation/Python.md", "text", "a change\nfails with the text report:")
    snapshot = shown.split("$ cat snapshots/checkout.json\n", 1)[1].split("$ pytest -q\n", 1)[0]
    (root / "snapshots").mkdir(parents=True)
    (root / "snapshots" / "checkout.json").write_text(snapshot.strip() + "\n")

    commands = []  # [command, expected answer lines]
    for line in session:
        if line.startswith("#"):
            commands[-1][1].append(line[2:])
        elif commands and commands[-1][0].endswith("\\"):
            commands[-1][0] += "\n" + line
        else:
            commands.append([line, []])
    with Tracksnap.start(root=root) as server:
        assignments = ""
        for command, expected in commands:
            while expected and expected[-1].endswith(":"):
                expected.pop()
            command = command.replace(shown_url, server.url)
            if re.fullmatch(r"\w+=\S+", command):
                assignments += command + "\n"
                continue
            done = subprocess.run(["bash", "-c", assignments + command], cwd=tmp_path, capture_output=True,
                                  text=True, timeout=60)
            answer = done.stdout.replace(server.url, shown_url).replace(os.fspath(server.root), shown_root)
            assert done.returncode == 0, f"{command}: exit status {done.returncode}: {done.stderr}"
            assert (answer.rstrip("\n").split("\n") if answer else []) == expected, command
        assert (tmp_path / "s1.ndjson").read_text().count("\n") == 1, "DELETE answered the session's request"


def test_the_guides_selenium_example_records_then_passes_through_interception(suite):
    """Documentation/Python.md, "A browser through interception": its pytest.ini and its selenium
    test, Debian's chromium driven headless through the server's interception, trusting the CA
    by the client's `ca_spki`; the first run records the snapshot, the next passes."""
    if not (os.path.exists("/usr/bin/chromium") and os.path.exists("/usr/bin/chromedriver")):
        pytest.fail("the guide's browser example needs Debian's chromium and chromium-driver: make test-tools installs them")
    ini = fenced("Documentation/Python.md", "ini", "analytics hosts and answers them itself")
    example = fenced("Documentation/Python.md", "python", "**A browser through interception.**")
    (suite.path / "pytest.ini").write_text(ini)
    (suite.path / "tests").mkdir()
    (suite.path / "tests" / "test_browser.py").write_text(example)

    first = run(suite)
    first.assert_outcomes(failed=1)
    first.stdout.fnmatch_lines(["*Recorded the snapshot snapshots/browser_purchase.json from * captured requests*; it expects 1 request.*"])
    recorded = json.loads((suite.path / "snapshots" / "browser_purchase.json").read_text())
    text = json.dumps(recorded)
    assert "purchase" in text and "EUR" in text, text
    run(suite).assert_outcomes(passed=1)
