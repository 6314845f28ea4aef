"""The control API of `tracksnap serve`, over urllib: the server, its sessions, their reports."""

from __future__ import annotations

import json
import os
import selectors
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Iterable, Optional, Tuple, Union

__all__ = ["Tracksnap", "Session", "Report", "TracksnapError"]

PathLike = Union[str, "os.PathLike[str]"]


class TracksnapError(Exception):
    """A call the server refused (its status and `{"error": …}` message), or a server that
    cannot be started or reached."""

    def __init__(self, message: str, status: Optional[int] = None):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Report:
    """A session's validation: whether it passed, and the report in the format asked for.

    `text` is the report as the server rendered it (the text report is what an assertion shows);
    `json` is the parsed JSON report when the format was `json`.
    """

    passed: bool
    text: str
    format: str
    json: Optional[dict] = None
    #: Why the server's wait ended (`complete`, `settled`, `timed_out`…), when it waited.
    wait: Optional[str] = None
    #: Requests the server captured while the session was open that no session got
    #: (`X-Tracksnap-Unattributed`): see `Session.unattributed()`.
    unattributed: int = 0


class _RefuseRedirects(urllib.request.HTTPRedirectHandler):
    """The control API never redirects: a redirect is raised as the error it is, not followed,
    so that the token never goes to another host."""

    def redirect_request(self, *args: Any) -> None:
        return None


# Proxies from the environment must not apply to the control API: a test that points
# HTTP_PROXY at tracksnap would otherwise send the control calls through tracksnap itself.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}), _RefuseRedirects())

#: The environment variable `tracksnap serve` and the pytest plugin take the token from.
_TOKEN_VARIABLE = "TRACKSNAP_TOKEN"


class Tracksnap:
    """A running `tracksnap serve`: started by `start()` (and stopped by `stop()` or a `with`
    block), or attached to by URL with `attach()`.

    >>> with Tracksnap.start(root="tests") as server:
    ...     session = server.session("checkout")
    """

    def __init__(self, url: str, *, token: Optional[str] = None, root: Optional[PathLike] = None,
                 ca_certificate: Optional[PathLike] = None, process: Optional[subprocess.Popen] = None,
                 log: Optional[Path] = None, ca_spki: Optional[str] = None):
        self.url = url.rstrip("/")
        self.token = token
        #: The directory the server resolves snapshot paths against, as this machine sees it.
        self.root = Path(root) if root is not None else Path.cwd()
        #: The certificate of the CA the server signs intercepted hosts' certificates with, when
        #: it intercepts HTTPS; `Session.proxy_env` makes a client trust it.
        self.ca_certificate = Path(ca_certificate) if ca_certificate is not None else None
        self._ca_spki = ca_spki
        self._process = process
        self._log = log

    # -- the server ---------------------------------------------------------------------------

    @classmethod
    def start(cls, *, root: Optional[PathLike] = None, binary: Optional[PathLike] = None,
              intercept: Iterable[str] = (), answer: bool = False, ca_dir: Optional[PathLike] = None,
              upstream: Optional[str] = None, token: Optional[str] = None, args: Iterable[str] = (),
              timeout: float = 30.0) -> "Tracksnap":
        """Launches `tracksnap serve` on a free port of 127.0.0.1 and waits for its first line.

        >>> Tracksnap.start(intercept=["api.segment.io"], answer=True, ca_dir="tests/ca")

        The binary is `binary`, else `$TRACKSNAP_BIN`, else `tracksnap` on the PATH. Paths the
        control API takes are confined to `root` (default: the working directory). The other
        arguments are `serve`'s options: `intercept` (`--intercept`: decrypt the CONNECT tunnels
        to these hosts: `all`, `analytics`, `*.DOMAIN`, a host, `PATTERN=answer`), `answer`
        (`--answer`: answer intercepted requests instead of forwarding them), `ca_dir`
        (`--ca-dir`), `upstream` (`--upstream`: a reverse proxy's target), `token` (the control
        API then demands it; it reaches `serve` in its environment, `$TRACKSNAP_TOKEN`, never on
        its command line, which `ps` shows to every user, and no error message repeats it); `args`
        go to `serve` as they are (`["--max-requests", "1000"]`). When it intercepts, the CA is
        made first if its folder holds none (as `tracksnap ca` does), and `ca_certificate` names
        its certificate.
        """
        program = _program(binary)
        root_path = Path(root).resolve() if root is not None else Path.cwd()
        ca_path = Path(ca_dir).expanduser().resolve() if ca_dir is not None else None
        patterns = list(intercept)
        options = [option for pattern in patterns for option in ("--intercept", pattern)]
        options += ["--answer"] if answer else []
        options += ["--ca-dir", os.fspath(ca_path)] if ca_path is not None else []
        options += ["--upstream", upstream] if upstream is not None else []
        certificate, spki = _certificate_authority(program, ca_path) if patterns else (None, None)
        command = [program, "serve", "--port", "0", "--quiet", "--root", os.fspath(root_path), *options, *args]
        # Without a token the server must not take one from this process's environment: the
        # client would not send it.
        environment = {name: value for name, value in os.environ.items() if name != _TOKEN_VARIABLE}
        if token:
            environment[_TOKEN_VARIABLE] = token
        log = Path(tempfile.mkstemp(prefix="tracksnap-serve-", suffix=".log")[1])
        with open(log, "wb") as errors:
            try:
                process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors,
                                           env=environment)
            except OSError as error:
                raise TracksnapError(f"cannot run {program}: {error}") from error
        line = _first_line(process, timeout)
        prefix = "listening on "
        if not line.startswith(prefix):
            process.kill()
            process.wait()
            detail = log.read_text(errors="replace").strip()
            log.unlink(missing_ok=True)
            message = f"`{' '.join(command)}` did not start: {detail or line or 'no output'}"
            raise TracksnapError(_scrubbed(message, token))
        return cls(line[len(prefix):].strip(), token=token, root=root_path, ca_certificate=certificate,
                   process=process, log=log, ca_spki=spki)

    @classmethod
    def attach(cls, url: str, *, token: Optional[str] = None, root: Optional[PathLike] = None,
               ca_certificate: Optional[PathLike] = None) -> "Tracksnap":
        """A server already running at `url` (`http://127.0.0.1:8181`); `token` when it was
        started with one (`--token`, `--token-file` or `$TRACKSNAP_TOKEN`); `root`, its `--root`
        as this machine sees it (default: the working directory), where snapshot files are looked
        for; `ca_certificate`, the `ca-cert.pem` of its `--ca-dir` when it intercepts HTTPS."""
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise TracksnapError(f"{url!r} is no server's URL: write it as http://127.0.0.1:PORT, "
                                 "the address tracksnap serve prints on its first line")
        server = cls(url, token=token, root=root, ca_certificate=ca_certificate)
        try:
            server.health()
        except TracksnapError as error:
            raise TracksnapError(f"no tracksnap serve answers at {url}: {error}", status=error.status) from None
        return server

    @property
    def ca_spki(self) -> Optional[str]:
        """The CA's SPKI hash, base64 of the SHA-256 of its SubjectPublicKeyInfo, which Chromium's
        `--ignore-certificate-errors-spki-list` takes to trust it for one browser alone; None when
        the server does not intercept. It is what `tracksnap ca` prints as `SPKI:` (read then for
        a server `start()` launched; for an attached one, from `tracksnap ca --ca-dir` on the
        folder of its `ca_certificate`)."""
        if self._ca_spki is None and self.ca_certificate is not None:
            if not self.ca_certificate.is_file():
                raise TracksnapError(f"no CA certificate at {self.ca_certificate}: the server's --ca-dir holds none")
            self._ca_spki = _certificate_authority(_program(None), self.ca_certificate.parent)[1]
        return self._ca_spki

    def stop(self) -> None:
        """Stops a server `start()` launched (SIGTERM, then SIGKILL after 10 s); nothing for an
        attached one."""
        process, self._process = self._process, None
        if process is None:
            return
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout:
            process.stdout.close()
        if self._log:
            self._log.unlink(missing_ok=True)

    def __enter__(self) -> "Tracksnap":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # -- calls ------------------------------------------------------------------------------

    def health(self) -> dict:
        """The server's counters (`GET /__tracksnap/health`)."""
        return self._call("GET", "health").json()

    def session(self, name: Optional[str] = None, cassette: Optional[str] = None,
                record_mode: Optional[str] = None) -> "Session":
        """Starts a capture session (`POST /__tracksnap/sessions`). With `cassette` (a path under
        the server's root), what the session gets that the server would forward is answered from
        it, recorded as `record_mode` says (`missing`, `never`, `all`, `failed`, or VCR's names);
        without it the server decides (its `TRACKSNAP_RECORD`, else `never` in CI, else `missing`),
        and the session's `record_mode` says what it decided."""
        body = {key: value for key, value in
                (("name", name), ("cassette", cassette), ("recordMode", record_mode)) if value is not None}
        answer = self._call("POST", "sessions", body=body or None).json()
        return Session(self, answer["id"], answer.get("name"), answer.get("recordMode"))

    def sessions(self) -> list:
        """The open sessions, `[{"id": "s1", "name": "checkout"}]`."""
        return self._call("GET", "sessions").json()

    def requests(self, format: str = "json") -> Any:
        """Everything captured, secrets hidden: a list of records (`json`), NDJSON text
        (`ndjson`) or a HAR document (`har`)."""
        return _requests(self._call("GET", "requests", query={"format": format}), format)

    def reset(self) -> None:
        """Forgets everything captured and ends every session."""
        self._call("POST", "reset")

    def snapshots(self) -> dict:
        """The snapshots under the root's `snapshots/` and `Snapshots/` folders and the pending recordings beside
        them, each with its diff (`GET /__tracksnap/snapshots`): `{"snapshots": [{"file": …,
        "exists": …, "pending": …, "diff": …}], …}`."""
        return self._call("GET", "snapshots").json()

    def accept(self, snapshot: PathLike) -> dict:
        """Moves the pending recording `X.new.json` over the snapshot `X.json`, as `tracksnap
        accept` does."""
        return self._call("POST", "snapshots/accept", body={"snapshot": str(snapshot)}).json()

    def reject(self, snapshot: PathLike) -> dict:
        """Deletes the pending recording `X.new.json`, as `tracksnap reject` does."""
        return self._call("POST", "snapshots/reject", body={"snapshot": str(snapshot)}).json()

    def _call(self, method: str, path: str, *, query: Optional[dict] = None, body: Optional[dict] = None,
              timeout: float = 330.0) -> "_Answer":
        url = f"{self.url}/__tracksnap/{path}"
        items = {k: _query_value(v) for k, v in (query or {}).items() if v is not None}
        if items:
            url += "?" + urllib.parse.urlencode(items)
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(url, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        try:
            with _OPENER.open(request, timeout=timeout) as response:
                return _Answer(response.status, dict(response.headers.items()), response.read())
        except urllib.error.HTTPError as error:
            text = error.read().decode("utf-8", "replace")
            try:
                message = json.loads(text)["error"]
            except (ValueError, KeyError, TypeError):
                shown = " ".join(text.split())
                message = ("an answer that is not the control API's (is another server at this address?): "
                           + (shown[:200] + "…" if len(shown) > 200 else shown))
            if 300 <= error.code < 400:
                message = (f"redirected to {error.headers.get('Location')}, which the control API never does: "
                           f"not followed, so that the call and its token go nowhere but {self.url}")
            raise TracksnapError(_scrubbed(f"{method} {url}: {error.code}: {message}", self.token),
                                 status=error.code) from None
        except (urllib.error.URLError, OSError) as error:
            raise TracksnapError(_scrubbed(f"{method} {url}: {getattr(error, 'reason', error)}", self.token)) from None


class Session:
    """A capture session: the app's traffic sent to `base_url` (or through the proxy with
    `headers`) lands here; wait for it, validate it, record it, stop it."""

    def __init__(self, server: Tracksnap, id: str, name: Optional[str] = None, record_mode: Optional[str] = None):
        self.server = server
        self.id = id
        self.name = name
        #: How the session's cassette records, as the server decided it (None without a cassette).
        self.record_mode = record_mode

    @property
    def base_url(self) -> str:
        """Where an SDK sends to land in this session: `http://127.0.0.1:PORT/__tracksnap/s/ID`
        (the prefix is stripped before recording: `…/s/ID/v1/batch` is captured as `/v1/batch`)."""
        return f"{self.server.url}/__tracksnap/s/{urllib.parse.quote(self.id, safe='')}"

    @property
    def proxy_url(self) -> str:
        """The server as an HTTP forward proxy (`HTTP_PROXY`); HTTPS tunnels pass unread unless
        the server intercepts them."""
        return self.server.url

    @property
    def proxies(self) -> dict:
        """`requests`-style proxy settings: `{"http": …, "https": …}`."""
        return {"http": self.proxy_url, "https": self.proxy_url}

    @property
    def headers(self) -> dict:
        """The header that puts proxied traffic in this session when several are open."""
        return {"X-Tracksnap-Session": self.id}

    @property
    def proxy_env(self) -> dict:
        """The environment that sends a client's HTTP and HTTPS through the server:
        `HTTP_PROXY`/`HTTPS_PROXY` (and their lower-case forms), `NO_PROXY` for 127.0.0.1 and
        localhost (the control API and `base_url` are reached directly), and, when the server
        intercepts HTTPS, `SSL_CERT_FILE`, `REQUESTS_CA_BUNDLE` and `CURL_CA_BUNDLE` naming its
        CA certificate. These replace the default roots for that process: another HTTPS host it
        reaches must be intercepted too.

        >>> subprocess.run(["python", "app.py"], env={**os.environ, **session.proxy_env})

        Proxied traffic lands in this session while it is the only one open (as with one
        `tracksnap_session` per test); otherwise the client must send `headers`.
        """
        local = "127.0.0.1,localhost,::1"
        env = {"HTTP_PROXY": self.proxy_url, "HTTPS_PROXY": self.proxy_url, "NO_PROXY": local}
        certificate = self.server.ca_certificate
        if certificate is not None:
            env.update(SSL_CERT_FILE=str(certificate), REQUESTS_CA_BUNDLE=str(certificate),
                       CURL_CA_BUNDLE=str(certificate))
        # urllib and requests read the lower-case forms first: a developer's own proxy set there
        # would otherwise win.
        env.update({name.lower(): env[name] for name in ("HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY")})
        return env

    def unattributed(self) -> int:
        """How many requests the server captured while this session was open that no session got:
        sent without a session hint while several sessions were open, or to a session that was
        not open — often an SDK client made once with an earlier session's `base_url`."""
        return int(self._call("GET", "requests").headers.get("X-Tracksnap-Unattributed", 0))

    def wait(self, count: Optional[int] = None, *, events: Optional[int] = None, settle: Optional[float] = None,
             timeout: Optional[float] = None) -> list:
        """The session's requests once it holds `count` requests and `events` decoded events,
        then once none arrived for `settle` seconds, or at `timeout` (default 30, at most 300)."""
        answer = self._call("GET", "requests", query={"count": count, "events": events, "settle": settle, "timeout": timeout})
        return answer.json()

    def requests(self, format: str = "json") -> Any:
        """What the session captured so far, secrets hidden: a list of records (`json`), NDJSON
        text (`ndjson`) or a HAR document (`har`)."""
        return _requests(self._call("GET", "requests", query={"format": format}), format)

    def validate(self, snapshot: Optional[PathLike] = None, *, content: Any = None, format: str = "json",
                 validator: Optional[str] = None, timeout: Optional[float] = None,
                 settle: Optional[float] = None,
                 plan: Union[PathLike, Iterable[PathLike], None] = None,
                 consent: Union[str, Dict[str, str], None] = None) -> Report:
        """Validates the session against a snapshot: a path under the server's root, or its
        JSON as `content`, and against the tracking plans `plan` names (paths under the root;
        with no snapshot, the plans alone). The server first waits until every expected entry is
        matched or traffic settles (quiet for `settle` seconds, default 0.5, within `timeout`,
        default 10, as `assert_tracking` does); `settle=0` without `timeout` validates what is
        there at once. `consent` declares the user's choice (`"denied"`, `"granted"`,
        `"ad_storage=denied,analytics_storage=granted"` or a dict of Consent Mode types and
        states): every request is checked against it (`consent` findings)."""
        plans = None if plan is None else (
            [os.fspath(plan)] if isinstance(plan, (str, os.PathLike)) else [os.fspath(p) for p in plan])
        body = _body(snapshot, content, validator=validator, format=format, timeout=timeout, settle=settle,
                     plan=plans, consent=consent)
        answer = self._call("POST", "validate", body=body)
        text = answer.body.decode("utf-8", "replace")
        return Report(passed=answer.headers.get("X-Tracksnap-Passed") == "true", text=text, format=format,
                      json=json.loads(text) if format == "json" else None, wait=answer.headers.get("X-Tracksnap-Wait"),
                      unattributed=int(answer.headers.get("X-Tracksnap-Unattributed", 0)))

    def record(self, snapshot: Optional[PathLike] = None, *, content: Any = None, mode: Optional[str] = None,
               pending: Optional[bool] = None, reruns: Iterable[Union["Session", str]] = (),
               validator: Optional[str] = None, timeout: Optional[float] = None,
               settle: Optional[float] = None) -> dict:
        """Records the session (and `reruns`, other runs of the same flow) into a snapshot file
        under the server's root, by `mode` (`missing`, `all`, `never`, `failed`; default `all`),
        or, without `snapshot`, answers it as `snapshotContent` (over `content`, when given).
        The server first waits for the session's traffic to settle, as `validate` does
        (`settle=0` without `timeout` records what is there at once)."""
        ids = [run.id if isinstance(run, Session) else run for run in reruns]
        body = _body(snapshot, content, validator=validator, mode=mode, pending=pending, reruns=ids or None,
                     timeout=timeout, settle=settle)
        return self._call("POST", "record", body=body).json()

    def stop(self, format: str = "json") -> Any:
        """Ends the session and answers what it captured, as `requests()` does."""
        answer = self.server._call("DELETE", f"sessions/{urllib.parse.quote(self.id, safe='')}", query={"format": format})
        return _requests(answer, format)

    def _call(self, method: str, action: str, **kwargs: Any) -> "_Answer":
        return self.server._call(method, f"sessions/{urllib.parse.quote(self.id, safe='')}/{action}", **kwargs)

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"Session(id={self.id!r}, base_url={self.base_url!r})"


@dataclass
class _Answer:
    status: int
    headers: dict
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def _requests(answer: _Answer, format: str) -> Any:
    return answer.body.decode() if format == "ndjson" else answer.json()


def _body(snapshot: Optional[PathLike], content: Any, **fields: Any) -> dict:
    body = {key: value for key, value in fields.items() if value is not None}
    if snapshot is not None:
        body["snapshot"] = os.fspath(snapshot)
    if content is not None:
        body["snapshotContent"] = content
    return body


def _scrubbed(message: str, token: Optional[str]) -> str:
    """An error message without the token, whatever repeated it (a server's answer, a command)."""
    return message.replace(token, "[redacted]") if token else message


def _query_value(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _program(binary: Optional[PathLike]) -> str:
    """The tracksnap binary: `binary`, else `$TRACKSNAP_BIN`, else `tracksnap` on the PATH."""
    program = binary or os.environ.get("TRACKSNAP_BIN") or shutil.which("tracksnap")
    if not program:
        raise TracksnapError(
            "tracksnap is not on the PATH and TRACKSNAP_BIN is not set: run `make install` in a clone of "
            "tracksnap (or set TRACKSNAP_BIN to the binary)")
    return os.fspath(program)


def _certificate_authority(program: str, ca_dir: Optional[PathLike]) -> Tuple[Path, str]:
    """The CA certificate `serve --intercept` signs with, and its SPKI hash, made first when its
    folder holds no CA: `tracksnap ca [--ca-dir DIR]` prints `certificate: PATH` and `SPKI: HASH`."""
    command = [program, "ca", *(["--ca-dir", os.fspath(ca_dir)] if ca_dir is not None else [])]
    try:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise TracksnapError(f"cannot run {program}: {error}") from error
    shown = dict(line.split(":", 1) for line in done.stdout.splitlines() if ":" in line)
    certificate, spki = shown.get("certificate", "").strip(), shown.get("SPKI", "").strip()
    if done.returncode == 0 and certificate and spki:
        return Path(certificate), spki
    detail = (done.stderr or done.stdout).strip() or f"exit status {done.returncode}"
    raise TracksnapError(f"`{' '.join(command)}` did not make or show the certificate authority: {detail}")


def _first_line(process: subprocess.Popen, timeout: float) -> str:
    """The child's first line of standard output, or what it printed before exiting or the deadline."""
    assert process.stdout is not None
    line = b""
    deadline = time.monotonic() + timeout
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        while not line.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not selector.select(remaining):
                break
            byte = os.read(process.stdout.fileno(), 1)
            if not byte:
                break
            line += byte
    return line.decode("utf-8", "replace").strip()
