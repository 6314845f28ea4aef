"""The pytest example of tracksnap's front page (README.md, "A pytest test"), run as the page says a
user runs it: the first run records the snapshot the guide (Documentation/Python.md) shows and
fails, the next passes, another currency fails with the report's line, and the failure says how to
accept it. The guide's copy of the example is the page's."""

import re
from pathlib import Path

import pytest

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
