"""A session's cassette from Python: a backend on loopback recorded once through the reverse proxy
by a test marked `tracksnap_cassette`, then replayed by the next runs after the backend stopped,
as a user's suite runs, in a pytest of its own."""

import json
import os
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

USER_TEST = '''
import urllib.request
import pytest

@pytest.mark.tracksnap_cassette("cassettes/api.json")
def test_products(tracksnap_session):
    with open("modes.txt", "a") as modes:
        modes.write(tracksnap_session.record_mode + "\\n")
    request = urllib.request.Request(tracksnap_session.base_url + "/v1/products?page=1",
                                     headers={"Authorization": "Bearer s3cr3t-token"})
    with urllib.request.urlopen(request) as answer:
        with open("answers.txt", "a") as answers:
            answers.write(answer.read().decode() + "\\n")
'''


class Backend(BaseHTTPRequestHandler):
    """Answers something new every time, and only with the token."""

    def do_GET(self):
        ok = self.headers.get("Authorization") == "Bearer s3cr3t-token"
        body = json.dumps({"id": str(uuid.uuid4())} if ok else {"error": "no token"}).encode()
        self.send_response(200 if ok else 401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Set-Cookie", f"session={uuid.uuid4()}")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


@pytest.fixture
def suite(pytester, monkeypatch):
    for name in ("CI", "TRACKSNAP_RECORD", "TRACKSNAP_URL", "TRACKSNAP_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    assert os.environ.get("TRACKSNAP_BIN"), "TRACKSNAP_BIN must name the tracksnap binary (make test sets it)"
    return pytester


def run(pytester, *args):
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args, timeout=300)


def test_a_marked_test_records_its_cassette_once_then_replays_it_with_the_backend_gone(suite, monkeypatch):
    backend = ThreadingHTTPServer(("127.0.0.1", 0), Backend)
    threading.Thread(target=backend.serve_forever, daemon=True).start()
    suite.makefile(".ini", pytest=f"[pytest]\ntracksnap_upstream = http://127.0.0.1:{backend.server_port}\n")
    suite.makepyfile(test_products=USER_TEST)

    run(suite).assert_outcomes(passed=1)
    backend.shutdown()
    backend.server_close()
    monkeypatch.setenv("CI", "true")  # never: replay only
    run(suite).assert_outcomes(passed=1)
    run(suite).assert_outcomes(passed=1)

    answers = (suite.path / "answers.txt").read_text().splitlines()
    assert len(answers) == 3 and len(set(answers)) == 1 and '"id"' in answers[0], answers
    cassette = (suite.path / "cassettes" / "api.json").read_text()
    assert "s3cr3t-token" not in cassette and "session=" not in cassette, cassette

    # A page never recorded: the server answers 599 saying why, and the test fails on it.
    suite.makepyfile(test_products=USER_TEST.replace("page=1", "page=2"))
    result = run(suite)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*HTTP Error 599*"])
    # The server decided each run's mode from its environment; the client did not decide it again.
    assert (suite.path / "modes.txt").read_text().split() == ["missing", "never", "never", "never"]
