"""The plugin's options for `tracksnap serve`, from the ini file, the command line and a conftest's
`tracksnap_options`, and an HTTPS test that needs nothing else: a vendor SDK at its own host,
intercepted and answered offline. Each suite runs as a user's does, in a pytest of its own."""

import json
import os
import secrets

import pytest

from tracksnap import Tracksnap

SEGMENT_OVER_HTTPS = '''
from segment.analytics import Client
from tracksnap import assert_tracking

def test_checkout(tracksnap_session, tracksnap_proxy_env):
    # Segment's SDK at its default host, https://api.segment.io; sync_mode raises unless answered 200.
    analytics = Client("wk_test_https_plugin", sync_mode=True, max_retries=0)
    analytics.track("user-42", "Order Completed", {"order_id": "o-1001", "revenue": 12.5})
    assert_tracking(tracksnap_session, "snapshots/checkout.json", validator="segment")
'''


@pytest.fixture
def suite(pytester, monkeypatch):
    for name in ("CI", "TRACKSNAP_RECORD", "TRACKSNAP_URL", "TRACKSNAP_TOKEN", "HTTP_PROXY", "HTTPS_PROXY",
                 "http_proxy", "https_proxy", "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"):
        monkeypatch.delenv(name, raising=False)
    assert os.environ.get("TRACKSNAP_BIN"), "TRACKSNAP_BIN must name the tracksnap binary (make test sets it)"
    return pytester


def run(pytester, *args):
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args, timeout=300)


def test_an_sdk_over_https_is_intercepted_and_answered_with_ini_options_alone(suite):
    suite.makefile(".ini", pytest="[pytest]\ntracksnap_intercept = api.segment.io\ntracksnap_answer = true\n"
                                  "tracksnap_ca_dir = tracksnap-ca\n")
    suite.makepyfile(test_checkout=SEGMENT_OVER_HTTPS)
    assert not (suite.path / "conftest.py").exists()

    first = run(suite)
    first.assert_outcomes(failed=1)
    first.stdout.fnmatch_lines(["*Recorded the snapshot snapshots/checkout.json from 1 captured request "
                                "(record mode `missing`); it expects 1 event. Check it, *"])
    recorded = (suite.path / "snapshots" / "checkout.json").read_text()
    assert '"Order Completed"' in recorded and "wk_test_https_plugin" not in recorded, recorded
    # The CA was made where the ini file said, as `tracksnap ca --ca-dir` makes it.
    assert (suite.path / "tracksnap-ca" / "ca-cert.pem").is_file()
    assert oct((suite.path / "tracksnap-ca" / "ca-key.pem").stat().st_mode & 0o777) == "0o600"

    run(suite).assert_outcomes(passed=1)


def test_options_come_from_the_ini_file_then_the_command_line(suite):
    (suite.path / "app").mkdir()
    suite.makepyprojecttoml("""
[tool.pytest.ini_options]
tracksnap_intercept = ["api.segment.io", "*.mixpanel.com=forward"]
tracksnap_answer = true
tracksnap_ca_dir = "ca"
tracksnap_root = "app"
tracksnap_serve_args = ["--max-requests", "100"]
""")
    suite.makepyfile(test_options="""
import json
def test_options(tracksnap_options):
    with open("options.json", "w") as file:
        json.dump({key: str(value) if key in ("root", "ca_dir") else value
                   for key, value in tracksnap_options.items()}, file)
""")

    def options(*args):
        run(suite, *args).assert_outcomes(passed=1)
        return json.loads((suite.path / "options.json").read_text())

    here = str(suite.path)
    from_file = {"root": f"{here}/app", "intercept": ["api.segment.io", "*.mixpanel.com=forward"], "answer": True,
                 "ca_dir": f"{here}/ca", "upstream": None, "args": ["--max-requests", "100"]}
    assert options() == from_file
    # The command line replaces the file's values; its paths are the working directory's.
    assert options("--tracksnap-intercept", "analytics", "--tracksnap-intercept", "api.posthog.com",
                   "--tracksnap-upstream", "http://127.0.0.1:9", "--tracksnap-root", ".",
                   "--tracksnap-ca-dir", "other-ca") == {
        **from_file, "intercept": ["analytics", "api.posthog.com"], "upstream": "http://127.0.0.1:9", "root": here,
        "ca_dir": f"{here}/other-ca"}


def test_the_command_line_and_a_conftest_reach_serve(suite):
    suite.makepyfile(test_server='''
def test_server(tracksnap):
    assert tracksnap.health()["status"] == "ok"
''')
    # `--answer` without `--intercept`: serve itself refuses, and says why.
    refused = run(suite, "--tracksnap-answer")
    refused.assert_outcomes(errors=1)
    refused.stdout.fnmatch_lines(["*--answer, --upstream-ca and --ca-dir apply to intercepted tunnels: name their "
                                  "hosts with --intercept*"])
    # A conftest's tracksnap_options gets the command line's and changes them.
    suite.makeconftest('''
import pytest
@pytest.fixture(scope="session")
def tracksnap_options(tracksnap_options):
    return {**tracksnap_options, "answer": False}
''')
    run(suite, "--tracksnap-answer").assert_outcomes(passed=1)


@pytest.mark.parametrize("server", ["started", "attached"])
def test_the_token_comes_from_the_environment(suite, monkeypatch, tmp_path, server):
    token = "tok-" + secrets.token_hex(8)
    monkeypatch.setenv("TRACKSNAP_TOKEN", token)
    suite.makepyfile(test_token='''
import os
import urllib.error
import urllib.request

def test_token(tracksnap, tracksnap_session):
    assert tracksnap.token == os.environ["TRACKSNAP_TOKEN"]
    assert tracksnap_session.requests() == []
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        opener.open(tracksnap.url + "/__tracksnap/health", timeout=10)
        status = 200
    except urllib.error.HTTPError as error:
        status = error.code
    assert status == 401
''')
    if server == "started":
        run(suite).assert_outcomes(passed=1)
        return
    with Tracksnap.start(root=tmp_path, token=token) as running:
        run(suite, f"--tracksnap-url={running.url}").assert_outcomes(passed=1)
