"""The pytest plugin (registered through the `pytest11` entry point): a `tracksnap` server for
the run and a `tracksnap_session` for each test.

The server is `tracksnap serve`, started once per run (`$TRACKSNAP_BIN`, else `tracksnap` on
the PATH) with the run's root directory as its `--root`, or the one at `--tracksnap-url`
(`$TRACKSNAP_URL`) when given.
"""

from __future__ import annotations

import os
from typing import Iterator

import pytest

from .client import Session, Tracksnap


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tracksnap")
    group.addoption("--tracksnap-url", default=os.environ.get("TRACKSNAP_URL"),
                    help="attach to this running tracksnap serve instead of starting one ($TRACKSNAP_URL)")


@pytest.fixture(scope="session")
def tracksnap(pytestconfig: pytest.Config) -> Iterator[Tracksnap]:
    """The run's `tracksnap serve`: started on a free port and stopped at the end, or attached."""
    url = pytestconfig.getoption("tracksnap_url")
    if url:
        yield Tracksnap.attach(url, token=os.environ.get("TRACKSNAP_TOKEN"), root=pytestconfig.rootpath)
        return
    with Tracksnap.start(root=pytestconfig.rootpath) as server:
        yield server


@pytest.fixture
def tracksnap_session(tracksnap: Tracksnap, request: pytest.FixtureRequest) -> Iterator[Session]:
    """A capture session for one test, named after it and stopped after it: send the app's
    traffic to `base_url` (or through `proxies` with `headers`)."""
    session = tracksnap.session(request.node.nodeid)
    yield session
    session.stop()
