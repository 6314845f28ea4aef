"""Records the SDK fixtures: runs each vendor's official Python SDK against capture_server.py.

Usage: /tmp/sdkvenv/bin/python record_sdk_fixtures.py   (from this folder)
The keys are fake (`*_test_fixture`), so nothing here is a secret; the tests prove that none of
them reaches a decoded event.
"""
import os, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))

def capture(name, run, raw=False):
    out = os.path.join(HERE, name + ".ndjson")
    raw_out = os.path.join(HERE, name + "-raw.ndjson") if raw else None
    for path in (out, raw_out):
        if path and os.path.exists(path):
            os.remove(path)
    args = [sys.executable, os.path.join(HERE, "capture_server.py"), out] + ([raw_out] if raw_out else [])
    server = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    try:
        port = int(server.stdout.readline())
        run("http://127.0.0.1:%d" % port)
    finally:
        server.terminate()
        server.wait()

def segment(base, gzip=False):
    from segment.analytics import Client
    client = Client("wk_test_fixture_segment", host=base, gzip=gzip, sync_mode=False, upload_size=100)
    client.identify("user-42", {"email": "ada@example.com", "plan": "pro"})
    client.track("user-42", "Order Completed", {"order_id": "o-1001", "revenue": 12.5, "currency": "EUR",
                 "products": [{"sku": "sku-1", "quantity": 2}]})
    client.page("user-42", "Docs", "Getting Started", {"url": "https://example.com/docs"})
    client.screen("user-42", "Onboarding", "Welcome", {"step": 1})
    client.group("user-42", "org-7", {"name": "Acme", "employees": 40})
    client.alias("user-42", "anon-1")
    client.flush()
    client.join()

def rudderstack(base):
    from rudderstack.analytics.client import Client
    client = Client("wk_test_fixture_rudder", host=base, sync_mode=False)
    client.identify("user-42", {"email": "ada@example.com"})
    client.track("user-42", "Product Viewed", {"sku": "sku-1", "price": 9.99})
    client.page("user-42", "Docs", "Pricing", {"path": "/pricing"})
    client.flush()
    client.join()

def mixpanel(base):
    import mixpanel
    consumer = mixpanel.Consumer(api_host=base.split("//")[1], events_url=base + "/track",
                                 people_url=base + "/engage", import_url=base + "/import")
    mp = mixpanel.Mixpanel("mp_token_test_fixture", consumer=consumer)
    mp.track("user-42", "Signed Up", {"plan": "pro", "trial_days": 14, "referrer": "ad"})
    mp.people_set("user-42", {"$email": "ada@example.com", "plan": "pro"})
    mp.import_data("mp_api_key_test_fixture", "user-42", "Old Purchase", 1700000000,
                   {"amount": 20}, api_secret="mp_secret_test_fixture")
    buffered = mixpanel.BufferedConsumer(max_size=10, events_url=base + "/track")
    mpb = mixpanel.Mixpanel("mp_token_test_fixture", consumer=buffered)
    mpb.track("user-42", "Song Played", {"song": "one"})
    mpb.track("user-42", "Song Played", {"song": "two"})
    buffered.flush()

def amplitude(base, batch=False):
    from amplitude import Amplitude, BaseEvent, Config, Identify, EventOptions
    config = Config(server_url=base + ("/batch" if batch else "/2/httpapi"), use_batch=batch, flush_queue_size=50)
    client = Amplitude("amp_key_test_fixture", configuration=config)
    client.track(BaseEvent(event_type="Song Played", user_id="user-42", device_id="device-9",
                           event_properties={"title": "One", "duration": 215.5}))
    client.track(BaseEvent(event_type="Purchase", user_id="user-42", event_properties={"price": 3.99, "quantity": 2}))
    identify = Identify().set("plan", "pro")
    client.identify(identify, EventOptions(user_id="user-42"))
    client.flush()
    client.shutdown()

def snowplow(base, method):
    from snowplow_tracker import (Emitter, Tracker, Subject, PageView, StructuredEvent, SelfDescribing,
                                  SelfDescribingJson)
    host, port = base.split("//")[1].split(":")
    emitter = Emitter(host, protocol="http", port=int(port), method=method, batch_size=10 if method == "post" else None)
    subject = Subject().set_user_id("user-42").set_platform("pc")
    tracker = Tracker("sp-fixture", emitter, subject=subject, app_id="shop", encode_base64=(method == "get"))
    context = SelfDescribingJson("iglu:com.acme/order_context/jsonschema/1-0-0", {"order_id": "o-1001"})
    tracker.track(PageView(page_url="https://example.com/docs", page_title="Docs", referrer="https://example.com/"))
    tracker.track(StructuredEvent(category="shop", action="add-to-basket", label="sku-1", property_="red",
                                  value=2, context=[context]))
    tracker.track(SelfDescribing(SelfDescribingJson("iglu:com.acme/checkout/jsonschema/1-0-0",
                                                    {"step": 2, "coupon": None}), context=[context]))
    tracker.flush()

def snowplow_post_unencoded(base):
    snowplow(base, "post")

def posthog(base, gzip=False):
    from posthog import Posthog
    client = Posthog("phc_test_fixture_key", host=base, gzip=gzip, flush_at=50, sync_mode=False)
    client.capture("order completed", distinct_id="user-42", properties={"order_id": "o-1001", "revenue": 12.5})
    client.capture("$pageview", distinct_id="user-42", properties={"$current_url": "https://example.com/docs"})
    client.set(distinct_id="user-42", properties={"plan": "pro"})
    client.group_identify("company", "org-7", {"name": "Acme"})
    client.alias("anon-1", "user-42")
    client.flush()
    client.shutdown()

capture("segment", segment)
capture("segment-gzip", lambda base: segment(base, gzip=True), raw=True)
capture("rudderstack", rudderstack, raw=True)
capture("mixpanel", mixpanel)
capture("amplitude-httpapi", amplitude)
capture("amplitude-batch", lambda base: amplitude(base, batch=True))
capture("snowplow-get", lambda base: snowplow(base, "get"))
capture("snowplow-post", lambda base: snowplow(base, "post"))
capture("posthog", posthog)
capture("posthog-gzip", lambda base: posthog(base, gzip=True), raw=True)
