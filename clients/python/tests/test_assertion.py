"""What `assert_tracking` says, as the Swift assertions say it: the text report and how to accept
what was captured, recordings from one run or several, traffic that reached no session (the
stale session URL an SDK client keeps), and counts in words ("1 request", "2 requests")."""

import json
import urllib.request

import pytest

from tracksnap import Tracksnap, assert_tracking

ONE_REQUEST = {"requests": [{"method": "POST", "url": {"$regex": "http://127\\.0\\.0\\.1:[0-9]+/v1/t"},
                             "body": {"event": "Order Completed"}}]}


@pytest.fixture
def server(tmp_path, monkeypatch):
    """A server of the test's own, its root a temporary folder that the snapshots are written to."""
    for name in ("CI", "TRACKSNAP_RECORD"):
        monkeypatch.delenv(name, raising=False)
    with Tracksnap.start(root=tmp_path) as server:
        yield server


def send(url, body, path="/v1/t"):
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(request, timeout=10) as answer:
        assert answer.status == 200


def failure(session, snapshot, **arguments):
    """The message `assert_tracking` fails with."""
    with pytest.raises(AssertionError) as raised:
        assert_tracking(session, snapshot, **arguments)
    return str(raised.value)


def test_a_mismatch_shows_the_report_then_how_to_accept_it(server, monkeypatch):
    (server.root / "one.json").write_text(json.dumps(ONE_REQUEST))
    session = server.session("checkout")
    send(session.base_url, {"event": "Order Refunded"})
    message = failure(session, "one.json")
    assert message.startswith("Tracking does not match the snapshot one.json:\n\n✗ one ("), message
    assert '/body/event  "Order Completed"  "Order Refunded"  value_mismatch' in message, message
    assert message.endswith(
        "1 failed (1 finding)\n\nTo accept what was captured, run the test again with TRACKSNAP_RECORD=failed."), message

    # The hint is true: with it, the snapshot is recorded anew, and then the same traffic passes.
    monkeypatch.setenv("TRACKSNAP_RECORD", "failed")
    accepted = failure(session, "one.json")
    assert "\nRe-recorded the snapshot one.json from 1 captured request (record mode `failed`); it expects " \
           "1 request. Check it, commit it, and run the test again." in accepted, accepted
    monkeypatch.delenv("TRACKSNAP_RECORD")
    assert_tracking(session, "one.json")


@pytest.mark.parametrize("requests, events, words", [
    (1, 1, "from 1 captured request (record mode `missing`); it expects 1 event."),
    (2, 2, "from 2 captured requests (record mode `missing`); it expects 2 events."),
])
def test_a_recording_counts_in_words(server, requests, events, words):
    session = server.session("signup")
    for number in range(requests):
        send(session.base_url, {"type": "track", "event": f"Step {number}", "userId": "u-1"}, path="/v1/track")
    message = failure(session, "signup.json", validator="segment")
    assert message == f"Recorded the snapshot signup.json {words} Check it, commit it, and run the test again.", message


def test_traffic_sent_to_a_stopped_session_names_the_stale_url_trap(server):
    (server.root / "one.json").write_text(json.dumps(ONE_REQUEST))
    # An SDK client made once, for an earlier test, keeps that test's session URL.
    earlier = server.session("an earlier test")
    stale_url = earlier.base_url
    earlier.stop()
    session = server.session("this test")
    send(stale_url, {"event": "Order Completed"})
    assert session.validate("one.json").unattributed == 1

    message = failure(session, "one.json", timeout=1)
    assert message.startswith("Tracking does not match the snapshot one.json:"), message
    assert f"""

While session {session.id} was open, the server captured 1 request that no session got: sent without a session hint \
while several sessions were open, or naming a session that was not open. A common trap is a stale session URL: an SDK \
client created once (at import, on the first call of the SDK's module-level API, or in a fixture of wider scope) with \
an earlier session's base_url keeps sending there after that session stopped; create it in each test from the session's base_url. Send \
X-Tracksnap-Session: {session.id}, or point the app at {session.base_url}.""" in message, message

    # Recording: nothing to record, and why.
    send(stale_url, {"event": "Order Completed"})
    message = failure(session, "new.json", timeout=1)
    assert message.startswith(
        "Captured no request, so the snapshot new.json was not recorded: an empty snapshot would pass on every later "
        f"run while checking nothing. Check that the app sends to the session's base URL ({session.base_url})"), message
    assert "the server captured 2 requests that no session got" in message, message
    assert not (server.root / "new.json").exists()

    # Sent where it should be, it passes, and says nothing of the stray requests.
    send(session.base_url, {"event": "Order Completed"})
    assert_tracking(session, "one.json")


def test_runs_record_from_several_sessions_then_validate_another_run(server):
    def run(name, order):
        session = server.session(name)
        send(session.base_url, {"event": "Order Completed", "order_id": order})
        return session

    first, second = run("run 1", "o-1001"), run("run 2", "o-2002")
    message = failure(first, "checkout.json", runs=[second])
    assert message == (
        "Recorded the snapshot checkout.json from 2 runs of the flow (1, 1 captured requests; record mode `missing`); "
        "it expects 1 request. 2 values recorded as patterns: /requests/0/body/order_id (differs between runs), "
        "/requests/0/url (local-origin). Check it, commit it, and run the test again."), message
    recorded = (server.root / "checkout.json").read_text()
    assert "o-1001" not in recorded and "o-2002" not in recorded, recorded

    # A third run, with an order id neither run had, passes; so do the runs it was learnt from.
    first.stop()
    second.stop()
    assert_tracking(run("run 3", "o-3003"), "checkout.json")

    # A run that differs is reported as that run, with the report and the hint.
    same, renamed = run("run 4", "o-4004"), server.session("run 5")
    send(renamed.base_url, {"event": "Order Complete", "order_id": "o-5005"})
    message = failure(same, "checkout.json", runs=[renamed])
    assert message.startswith("Tracking does not match the snapshot checkout.json in 1 of 2 runs of the flow:\n\n"
                              "Run 2 of 2:\n\n✗ checkout ("), message
    assert "Run 1 of 2" not in message and '"Order Completed"  "Order Complete"  value_mismatch' in message, message
    assert message.endswith("To accept what was captured, run the test again with TRACKSNAP_RECORD=failed."), message


def test_runs_in_another_order_on_another_machine_are_worded_as_in_swift(server):
    def run(name, events, os):
        session = server.session(name)
        for event in events:
            send(session.base_url, {"event": event, "properties": {"$os": os}})
        return session

    first = run("run 1", ["Checkout Started", "Order Completed"], "Linux")
    second = run("run 2", ["Order Completed", "Checkout Started"], "Mac OS X")
    message = failure(first, "checkout.json", runs=[second])
    assert (" 2 environment fields left out: /requests/0/body/properties/$$os, /requests/1/body/properties/$$os. "
            '"order": "any" (the runs sent it in different orders). Check it') in message, message
    recorded = (server.root / "checkout.json").read_text()
    assert '"order": "any"' in recorded and "Linux" not in recorded, recorded


def test_a_run_that_captured_nothing_records_nothing(server):
    first, empty = server.session("run 1"), server.session("run 2")
    send(first.base_url, {"event": "Order Completed"})
    message = failure(first, "checkout.json", runs=[empty], timeout=0.5)
    assert message.startswith("Run 2 of 2: Captured no request, so the snapshot checkout.json was not recorded"), message
    assert not (server.root / "checkout.json").exists()
