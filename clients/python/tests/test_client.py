"""The client against a live `tracksnap serve` (the plugin's `tracksnap` fixture starts it)."""

import base64
import contextlib
import json
import secrets
import subprocess
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tracksnap import Tracksnap, TracksnapError, record_mode

SNAPSHOT = {"requests": [{"method": "POST", "url": {"$regex": "http://127\\.0\\.0\\.1:[0-9]+/v1/t"},
                          "body": {"event": "Order Completed"}}]}


def send(session, body, headers=None, path="/v1/t"):
    request = urllib.request.Request(session.base_url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(request, timeout=10) as answer:
        assert answer.status == 200


def test_wait_returns_the_session_requests(tracksnap_session):
    send(tracksnap_session, {"event": "Order Completed"})
    requests = tracksnap_session.wait(1, timeout=10)
    assert [r["url"].split("/", 3)[3] for r in requests] == ["v1/t"]
    assert requests[0]["session"] == tracksnap_session.id


def test_validate_with_content_passes_and_fails(tracksnap_session):
    send(tracksnap_session, {"event": "Order Completed"})
    assert tracksnap_session.validate(content=SNAPSHOT, settle=0.2).passed
    changed = {"requests": [dict(SNAPSHOT["requests"][0], body={"event": "Order Refunded"})]}
    report = tracksnap_session.validate(content=changed, format="text")
    assert not report.passed
    assert '"Order Refunded"' in report.text and '"Order Completed"' in report.text, report.text


def test_record_without_a_path_answers_the_snapshot(tracksnap_session):
    send(tracksnap_session, {"event": "Order Completed", "writeKey": "wk_live_123456"})
    answer = tracksnap_session.record(settle=0.2)
    assert answer["recorded"] is True and "file" not in answer
    assert "wk_live_123456" not in json.dumps(answer)
    assert tracksnap_session.validate(content=answer["snapshotContent"]).passed


def test_review_a_pending_recording(tmp_path):
    with Tracksnap.start(root=tmp_path) as server:
        with server.session() as session:
            send(session, {"event": "Order Completed"})
            session.record("Snapshots/order.json", pending=True, settle=0.2)
        [item] = server.snapshots()["snapshots"]
        assert (item["file"], item["exists"], item["pending"]) == (
            "Snapshots/order.json", False, "Snapshots/order.new.json")
        assert "+" in item["diff"] and "Order Completed" in item["diff"]
        assert server.accept("Snapshots/order.json")["decision"] == "accept"
        assert "Order Completed" in (tmp_path / "Snapshots/order.json").read_text()
        assert not (tmp_path / "Snapshots/order.new.json").exists()
        with pytest.raises(TracksnapError) as refused:
            server.reject("Snapshots/order.json")
        assert refused.value.status == 404


def test_exports_round_trip_without_secrets(tracksnap_session):
    token = "tok_9f8e7d6c5b4a"
    hidden = base64.b64encode(json.dumps({"properties": {"token": token}}).encode()).decode()
    send(tracksnap_session, {"event": "Order Completed", "data": hidden, "access_token": token},
         headers={"Authorization": f"Bearer {token}"})
    tracksnap_session.wait(1)
    har = tracksnap_session.requests("har")
    assert [e["request"]["url"].rsplit("/", 2)[-2:] for e in har["log"]["entries"]] == [["v1", "t"]]
    ndjson = tracksnap_session.requests("ndjson")
    assert len(ndjson.splitlines()) == 1
    for answer in (json.dumps(har), ndjson, json.dumps(tracksnap_session.requests()),
                   json.dumps(tracksnap_session.server.requests())):
        assert token not in answer
        assert "[redacted]" in answer


def test_bad_calls_raise_with_the_servers_message(tracksnap, tracksnap_session):
    with pytest.raises(TracksnapError, match="snapshot .* is required") as error:
        tracksnap_session.validate()
    assert error.value.status == 400
    with pytest.raises(TracksnapError, match="outside the root"):
        tracksnap_session.validate("../../etc/passwd")
    with pytest.raises(TracksnapError, match="no open session") as missing:
        tracksnap.session().server._call("GET", "sessions/nope/requests")
    assert missing.value.status == 404


def test_a_missing_binary_is_named(tmp_path):
    with pytest.raises(TracksnapError, match="cannot run"):
        Tracksnap.start(binary=tmp_path / "no-such-tracksnap")


def test_attach_to_a_running_server(tracksnap):
    attached = Tracksnap.attach(tracksnap.url)
    assert attached.health()["status"] == "ok"
    attached.stop()  # does not stop a server it did not start
    assert tracksnap.health()["status"] == "ok"


def openssl_spki(certificate):
    """The SPKI hash as openssl computes it from the certificate alone (Documentation/HTTPS.md)."""
    recipe = ("openssl x509 -in \"$1\" -pubkey -noout | openssl pkey -pubin -outform der"
              " | openssl dgst -sha256 -binary | base64")
    done = subprocess.run(["sh", "-c", recipe, "sh", str(certificate)], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_the_ca_spki_hash_is_the_one_chromium_takes_as_openssl_computes_it(tmp_path):
    with Tracksnap.start(root=tmp_path, intercept=["analytics"], ca_dir=tmp_path / "ca") as server:
        assert server.ca_certificate == tmp_path / "ca" / "ca-cert.pem"
        assert len(server.ca_spki) == 44 and server.ca_spki == openssl_spki(server.ca_certificate)
        attached = Tracksnap.attach(server.url, root=tmp_path, ca_certificate=server.ca_certificate)
        assert attached.ca_spki == server.ca_spki


def test_no_ca_spki_without_interception_and_a_missing_certificate_is_named(tracksnap, tmp_path):
    assert tracksnap.ca_spki is None
    attached = Tracksnap.attach(tracksnap.url, ca_certificate=tmp_path / "none" / "ca-cert.pem")
    with pytest.raises(TracksnapError, match="no CA certificate at .*none/ca-cert.pem"):
        attached.ca_spki
    assert not (tmp_path / "none").exists()


@pytest.mark.parametrize("environment, explicit, mode", [
    ({}, None, "missing"),
    ({"CI": "true"}, None, "never"),
    ({"CI": "0"}, None, "missing"),
    ({"CI": "true", "TRACKSNAP_RECORD": "failed"}, None, "failed"),
    ({"TRACKSNAP_RECORD": " ALL "}, None, "all"),
    ({"TRACKSNAP_RECORD": "all"}, "never", "never"),
])
def test_record_mode_as_the_swift_side_decides(environment, explicit, mode):
    assert record_mode(explicit, environment) == mode


def test_a_bad_record_mode_is_named():
    with pytest.raises(ValueError, match="TRACKSNAP_RECORD=sometimes is not a record mode; use one of missing, all, never, failed"):
        record_mode(None, {"TRACKSNAP_RECORD": "sometimes"})


def test_proxy_env_without_interception_names_the_proxy_and_no_ca(tracksnap_session):
    env = tracksnap_session.proxy_env
    for name in ("HTTP_PROXY", "HTTPS_PROXY"):
        assert env[name] == env[name.lower()] == tracksnap_session.server.url
    assert env["NO_PROXY"] == env["no_proxy"] == "127.0.0.1,localhost,::1"
    assert not {"SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"} & env.keys()


@contextlib.contextmanager
def local_server(answer):
    """An HTTP server on 127.0.0.1 whose GETs `answer(handler)` answers; yields its URL."""
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            answer(self)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.mark.parametrize("url", ["127.0.0.1:8181", "localhost", "ftp://127.0.0.1:8181"])
def test_attaching_to_what_is_no_url_says_how_to_write_one(url):
    with pytest.raises(TracksnapError, match=r"is no server's URL: write it as http://127\.0\.0\.1:PORT"):
        Tracksnap.attach(url)


def test_attaching_to_another_server_says_so_without_its_page():
    page = "<html><head><title>Not Found</title></head><body>" + "x" * 1000 + "</body></html>"

    def not_found(handler):
        body = page.encode()
        handler.send_response(404)
        handler.send_header("Content-Type", "text/html")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    with local_server(not_found) as url:
        with pytest.raises(TracksnapError) as error:
            Tracksnap.attach(url)
    message = str(error.value)
    assert message.startswith(f"no tracksnap serve answers at {url}: "), message
    assert "not the control API's (is another server at this address?)" in message, message
    assert len(message) < 400 and "x" * 300 not in message, message


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_is_refused_and_the_token_never_reaches_another_host(status):
    token = "tok-" + secrets.token_hex(8)
    arrived = []

    def elsewhere(handler):
        arrived.append(handler.headers.get("Authorization"))
        handler.send_response(200)
        handler.send_header("Content-Length", "2")
        handler.end_headers()
        handler.wfile.write(b"{}")

    with local_server(elsewhere) as other:
        def redirect(handler):
            handler.send_response(status)
            handler.send_header("Location", f"{other}/__tracksnap/health")
            handler.send_header("Content-Length", "0")
            handler.end_headers()

        with local_server(redirect) as url:
            with pytest.raises(TracksnapError, match="redirected to http://127.0.0.1:[0-9]+/__tracksnap/health, which "
                                                     "the control API never does: not followed") as error:
                Tracksnap.attach(url, token=token)
    assert error.value.status == status
    assert arrived == [], f"the other host got the call, with Authorization {arrived}"


def test_a_token_given_to_start_stays_off_the_command_line(tmp_path):
    token = "tok-" + secrets.token_hex(8)
    with Tracksnap.start(root=tmp_path, token=token) as server:
        pid = server._process.pid
        command_line = Path(f"/proc/{pid}/cmdline").read_bytes()
        listed = subprocess.run(["ps", "-ww", "-o", "args=", "-p", str(pid)], capture_output=True, text=True).stdout
        assert b"serve" in command_line and "serve" in listed, listed
        assert token.encode() not in command_line and token not in listed, listed
        with pytest.raises(TracksnapError, match="401") as refused:
            Tracksnap(server.url).health()
        assert refused.value.status == 401
        assert server.health()["status"] == "ok"
        assert server.session("with the token").id


def test_a_failed_start_does_not_repeat_the_token(tmp_path):
    token = "tok-" + secrets.token_hex(8)
    with pytest.raises(TracksnapError, match="did not start.*--max-requests") as error:
        Tracksnap.start(root=tmp_path, token=token, args=["--max-requests", "0"])
    assert token not in str(error.value)


def test_validate_against_a_tracking_plan(tracksnap_session):
    plan = Path(__file__).parent / "shop.plan.json"
    call = {"type": "track", "event": "Order Completed", "userId": "u1", "properties": {"revenue": "12.5"}}
    send(tracksnap_session, call)
    report = tracksnap_session.validate(plan=plan, settle=0.2)
    assert not report.passed
    snapshot = report.json["snapshots"][0]
    assert [(f["code"], f["path"]) for f in snapshot["findings"]] == [("plan_violation", "/properties/revenue")]
    assert [p["event"] for p in snapshot["plannedNotSent"]] == ['track "Refund Issued"']


def test_validate_with_a_declared_consent(tracksnap_session):
    hit = "/g/collect?v=2&tid=G-FX7T3K4Q9B&gcs=G111&gcd=13r3r3r3r5l1&cid=1398217362.1732176000&en=page_view"
    request = urllib.request.Request(tracksnap_session.base_url + hit, data=b"", method="POST")
    with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(request, timeout=10) as answer:
        assert answer.status in (200, 204)
    anything = {"requests": [], "unexpected": "allow"}
    denied = tracksnap_session.validate(content=anything, validator="ga4", consent="denied", settle=0.2)
    assert not denied.passed
    findings = [f for f in denied.json["snapshots"][0]["findings"] if f["code"] == "consent"]
    assert [f["path"] for f in findings] == ["/parameters/gcd"], findings
    granted = tracksnap_session.validate(content=anything, validator="ga4", settle=0,
                                         consent={"ad_storage": "granted", "analytics_storage": "granted"})
    assert granted.passed, granted.text
