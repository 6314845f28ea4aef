"""The pytest plugin (registered through the `pytest11` entry point): a `tracksnap` server for
the run, a `tracksnap_session` for each test, and `tracksnap_proxy_env` for a client that sends
through the server as its proxy.

The server is `tracksnap serve`, started once per run (`$TRACKSNAP_BIN`, else `tracksnap` on
the PATH), or the one at `--tracksnap-url` (`$TRACKSNAP_URL`) when given. `serve`'s options come
from, first to last: a `tracksnap_options` fixture a conftest overrides, the command line
(`--tracksnap-intercept`, …), and the ini file (`tracksnap_intercept = …` in `pytest.ini`, or
`[tool.pytest.ini_options]` in `pyproject.toml`):

    [pytest]
    tracksnap_intercept = api.segment.io api.mixpanel.com
    tracksnap_answer = true
    tracksnap_ca_dir = tests/tracksnap-ca
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Dict, Iterator, Optional

import pytest

from .assertion import RECORD_VARIABLE
from .client import _TOKEN_VARIABLE, Session, Tracksnap, TracksnapError

#: Where a relative path option is taken from.
_PATH_HELP = "relative to the ini file's folder in the ini file, to the working directory on the command line"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "tracksnap_cassette(path, record=None): the test's session replays this cassette (a path "
                   "under the server's root), recording by the record mode")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tracksnap")
    group.addoption("--tracksnap-url", default=os.environ.get("TRACKSNAP_URL"),
                    help="attach to this running tracksnap serve instead of starting one ($TRACKSNAP_URL)")
    group.addoption("--tracksnap-intercept", action="append", metavar="PATTERN",
                    help="serve --intercept: decrypt CONNECT tunnels to these hosts (all, analytics, *.DOMAIN, a "
                         "host; PATTERN=answer or =forward); repeatable, replaces the ini's tracksnap_intercept")
    group.addoption("--tracksnap-answer", action="store_true", default=None,
                    help="serve --answer: answer intercepted requests instead of forwarding them (ini: "
                         "tracksnap_answer)")
    group.addoption("--tracksnap-ca-dir", metavar="DIR",
                    help="serve --ca-dir: the certificate authority's folder, made on first use (ini: tracksnap_ca_dir)")
    group.addoption("--tracksnap-upstream", metavar="URL",
                    help="serve --upstream: forward requests there (reverse proxy) (ini: tracksnap_upstream)")
    group.addoption("--tracksnap-root", metavar="DIR",
                    help="serve --root: snapshot paths are resolved under it (default: the run's root directory; "
                         "ini: tracksnap_root)")
    parser.addini("tracksnap_intercept", type="args", default=[],
                  help="serve --intercept: hosts whose HTTPS tunnels are decrypted (all, analytics, *.DOMAIN, a host)")
    parser.addini("tracksnap_answer", type="bool", default=False,
                  help="serve --answer: answer intercepted requests instead of forwarding them")
    parser.addini("tracksnap_ca_dir", default="", help=f"serve --ca-dir: the CA's folder ({_PATH_HELP})")
    parser.addini("tracksnap_upstream", default="", help="serve --upstream: forward requests to this URL")
    parser.addini("tracksnap_root", default="", help=f"serve --root ({_PATH_HELP})")
    parser.addini("tracksnap_serve_args", type="args", default=[],
                  help="more options for tracksnap serve, as they are (--max-requests 1000)")


@pytest.fixture(scope="session")
def tracksnap_options(pytestconfig: pytest.Config) -> Dict[str, Any]:
    """The keyword arguments `Tracksnap.start` gets (`root`, `intercept`, `answer`, `ca_dir`,
    `upstream`, `args`): the command line's, else the ini file's. A conftest changes them for
    its tests by overriding this fixture:

        @pytest.fixture(scope="session")
        def tracksnap_options(tracksnap_options):
            return {**tracksnap_options, "intercept": ["analytics"], "answer": True}
    """
    config = pytestconfig
    base = config.inipath.parent if config.inipath else config.rootpath

    def path(option: str, ini: str) -> Optional[Path]:
        given = config.getoption(option)
        if given:
            return Path(given).expanduser().resolve()
        written = config.getini(ini)
        return (base / Path(written).expanduser()).resolve() if written else None

    answer = config.getoption("tracksnap_answer")
    return {
        "root": path("tracksnap_root", "tracksnap_root") or config.rootpath,
        "intercept": list(config.getoption("tracksnap_intercept") or config.getini("tracksnap_intercept")),
        "answer": bool(config.getini("tracksnap_answer") if answer is None else answer),
        "ca_dir": path("tracksnap_ca_dir", "tracksnap_ca_dir"),
        "upstream": config.getoption("tracksnap_upstream") or config.getini("tracksnap_upstream") or None,
        "args": list(config.getini("tracksnap_serve_args")),
    }


@pytest.fixture(scope="session")
def tracksnap(pytestconfig: pytest.Config, tracksnap_options: Dict[str, Any]) -> Iterator[Tracksnap]:
    """The run's `tracksnap serve`, started with `tracksnap_options` on a free port and stopped at
    the end; or the one at `--tracksnap-url`, attached (its options are its own; `ca_dir` still
    names the CA a client must trust). `$TRACKSNAP_TOKEN`, when set, is the token of both: the
    server started demands it, and the calls send it."""
    url = pytestconfig.getoption("tracksnap_url")
    token = os.environ.get(_TOKEN_VARIABLE) or None
    if url:
        ca_dir = tracksnap_options.get("ca_dir")
        try:
            server = Tracksnap.attach(url, token=token, root=tracksnap_options.get("root"),
                                      ca_certificate=Path(ca_dir) / "ca-cert.pem" if ca_dir else None)
        except TracksnapError as error:
            raise TracksnapError(f"--tracksnap-url (or $TRACKSNAP_URL): {error}", status=error.status) from None
        yield server
        return
    with Tracksnap.start(**{"token": token, **tracksnap_options}) as server:
        yield server


@pytest.fixture
def tracksnap_session(tracksnap: Tracksnap, request: pytest.FixtureRequest) -> Iterator[Session]:
    """A capture session for one test, named after it and stopped after it: send the app's
    traffic to `base_url`, or through the server as a proxy (`tracksnap_proxy_env`).

    `@pytest.mark.tracksnap_cassette("cassettes/api.yaml")` gives it a cassette: what the server
    would forward for it is replayed, recorded by the record mode: `record=`, else this process's
    `TRACKSNAP_RECORD`, else the server's rule (its `TRACKSNAP_RECORD`, else `never` in CI and
    `missing` locally), which the server alone decides and names in `tracksnap_session.record_mode`."""
    marker = request.node.get_closest_marker("tracksnap_cassette")
    cassette = mode = None
    if marker is not None:
        cassette = os.fspath(marker.args[0] if marker.args else marker.kwargs["path"])
        mode = marker.kwargs.get("record") or os.environ.get(RECORD_VARIABLE, "").strip() or None
    session = tracksnap.session(request.node.nodeid, cassette=cassette, record_mode=mode)
    yield session
    session.stop()


@pytest.fixture
def tracksnap_proxy_env(tracksnap_session: Session, monkeypatch: pytest.MonkeyPatch) -> Dict[str, str]:
    """Sends the test process's HTTP and HTTPS through the server, into `tracksnap_session`: sets
    `tracksnap_session.proxy_env` (the proxy, `NO_PROXY` for the server itself, and the CA
    certificate when the server intercepts HTTPS) for the test, and returns it for subprocesses."""
    env = tracksnap_session.proxy_env
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return env
