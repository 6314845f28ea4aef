"""Writes the browser-tag fixtures: what gtag.js, analytics.js (Segment and Universal
Analytics), the Meta pixel, posthog-js and mixpanel-js send, byte for byte in their wire
formats (query strings, gtag's one-event-per-line body, text/plain beacons, gzip-js bodies).

Usage: python3 write_browser_fixtures.py   (from this folder; deterministic: gzip mtime 0)
"""
import base64, gzip, json, urllib.parse

CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36"
PAGE = "https://shop.example/product/sku-1"

def q(pairs):
    # gtag and analytics.js encode with encodeURIComponent: spaces as %20.
    return "&".join(k + "=" + urllib.parse.quote(str(v), safe="-_.!~*'()") for k, v in pairs)

def line(id, method, url, body=None, content_type=None, binary=False, time=None):
    headers = [{"name": "User-Agent", "value": CHROME}, {"name": "Origin", "value": "https://shop.example"}]
    if content_type:
        headers.append({"name": "Content-Type", "value": content_type})
    record = {"id": str(id), "method": method, "url": url, "headers": headers,
              "time": time or "2026-11-21T08:00:%02d.000Z" % id}
    if body is not None:
        if binary:
            record["body"], record["bodyEncoding"] = base64.b64encode(body).decode(), "base64"
        else:
            record["body"], record["bodyEncoding"] = body, "text"
    return json.dumps(record, sort_keys=True, ensure_ascii=False)

def write(name, lines):
    with open(name, "w") as out:
        out.write("\n".join(lines) + "\n")

# gtag.js 2024+ (GA4): shared parameters in the query, events in the body, one per line.
shared = [("v", "2"), ("tid", "G-FX7T3K4Q9B"), ("gtm", "45je4bk0v9102476930za200"), ("_p", "1732176000123"),
          ("gcd", "13l3l3l3l1l1"), ("npa", "0"), ("dma", "0"), ("cid", "1398217362.1732176000"), ("ul", "en-us"),
          ("sr", "1920x1080"), ("uaa", "x86"), ("uab", "64"), ("uamb", "0"), ("uap", "Linux"), ("uapv", "6.8.0"),
          ("uaw", "0"), ("are", "1"), ("frm", "0"), ("pscdl", "noapi"), ("_eu", "AEA")]
page = [("sid", "1732176000"), ("sct", "1"), ("seg", "1"), ("dl", PAGE), ("dr", "https://shop.example/"),
        ("dt", "Stan and Friends Tee – Shop")]
ga = "https://region1.google-analytics.com/g/collect?"
tee = "idsku-1~nmStan and Friends Tee~brGoogle~caApparel~vagreen~pr12.5~qt1"
gtag = [
    # The first hit of a session: a single event, no body, sent with sendBeacon.
    line(1, "POST", ga + q(shared + [("_s", "1")] + page + [("en", "page_view"), ("_fv", "1"), ("_nsi", "1"),
         ("_ss", "1"), ("_ee", "1"), ("up.plan", "pro"), ("upn.lifetime_orders", "3"), ("tfd", "912")]), body=""),
    # Batched events: the query is shared, each body line one event.
    line(2, "POST", ga + q(shared + [("_s", "2")] + page + [("_tu", "CA")]),
         body="\r\n".join([
             q([("en", "view_item"), ("_et", "1523"), ("cu", "EUR"), ("pr1", tee), ("epn.value", "12.5")]),
             q([("en", "add_to_cart"), ("_et", "2087"), ("cu", "EUR"), ("pr1", tee.replace("qt1", "qt2")),
                ("epn.value", "25"), ("ep.method", "button")]),
             q([("en", "scroll"), ("_et", "3300"), ("epn.percent_scrolled", "90")]),
         ]), content_type="text/plain;charset=UTF-8"),
    # A purchase with two items and custom item parameters (k0/v0).
    line(3, "POST", ga + q(shared + [("_s", "3")] + page + [("en", "purchase"), ("_et", "412"), ("cu", "EUR"),
         ("ep.transaction_id", "T-1001"), ("epn.value", "59.9"), ("epn.tax", "4.9"), ("ep.coupon", "SUMMER"),
         ("pr1", tee.replace("qt1", "qt2") + "~k0color~v0green"), ("pr2", "idsku-7~nmSocks~pr34.9~qt1")]), body=""),
    # Measurement Protocol from a server: api_secret in the query must never reach an event.
    line(4, "POST", "https://www.google-analytics.com/mp/collect?measurement_id=G-FX7T3K4Q9B&api_secret=ga4_secret_test_fixture",
         body=json.dumps({"client_id": "1398217362.1732176000", "user_id": "user-42",
                          "timestamp_micros": "1732176005000000", "user_properties": {"plan": {"value": "pro"}},
                          "events": [{"name": "purchase", "params": {"transaction_id": "T-1002", "currency": "EUR",
                                      "value": 12.5, "items": [{"item_id": "sku-1", "quantity": 1, "price": 12.5}],
                                      "session_id": "1732176000", "engagement_time_msec": 100}},
                                     {"name": "refund", "params": {"transaction_id": "T-0999", "value": 5}}]}),
         content_type="application/json"),
]
write("gtag.ndjson", gtag)

# analytics.js (Universal Analytics, j101): the first hit on /j/collect, later hits as
# text/plain beacons on /collect, and a server's Measurement Protocol /batch.
ua_common = [("v", "1"), ("_v", "j101"), ("a", "1484924370"), ("ul", "en-us"), ("de", "UTF-8"), ("sd", "24-bit"),
             ("sr", "1920x1080"), ("vp", "1280x720"), ("je", "0"), ("cid", "1398217362.1732176000"),
             ("tid", "UA-12345-1"), ("_gid", "918273645.1732176000"), ("gtm", "2wgb10")]
ua_page = [("dl", PAGE), ("dt", "Stan and Friends Tee – Shop")]
ua = [
    line(1, "GET", "https://www.google-analytics.com/j/collect?" + q(ua_common[:3] + [("t", "pageview"), ("_s", "1")] +
         ua_page + ua_common[3:] + [("_u", "IEBAAEABAAAAACAAI~"), ("jid", "1093948123"), ("gjid", "551836294"),
         ("_r", "1"), ("z", "184920153")])),
    line(2, "POST", "https://www.google-analytics.com/collect", body=q(ua_common[:3] + [("t", "event"), ("_s", "2")] +
         ua_page + ua_common[3:] + [("ec", "Video"), ("ea", "play"), ("el", "Holiday"), ("ev", "300"),
         ("cd1", "premium"), ("_u", "aEBAAEABAAAAACAAI~"), ("z", "1598301174")]), content_type="text/plain;charset=UTF-8"),
    line(3, "POST", "https://www.google-analytics.com/batch", body="\n".join([
        q([("v", "1"), ("tid", "UA-12345-1"), ("cid", "555"), ("t", "pageview"), ("dp", "/home")]),
        q([("v", "1"), ("tid", "UA-12345-1"), ("cid", "555"), ("t", "event"), ("ec", "checkout"), ("ea", "purchase"),
           ("ev", "59")]),
        q([("v", "1"), ("tid", "UA-12345-1"), ("cid", "555"), ("t", "screenview"), ("an", "Shop"), ("cd", "Cart")]),
    ])),
]
write("universal-analytics.ndjson", ua)

# Segment analytics.js (analytics-next): text/plain beacons to /v1/p, /v1/t, /v1/i, the write
# key in the body.
def ajs(kind, extra, n):
    body = {"timestamp": "2026-11-21T08:00:0%d.120Z" % n, "integrations": {}, "type": kind,
            "userId": "user-42", "anonymousId": "3f1c2c8e-6b1f-4a57-9f7e-2c1b0d7a9e11",
            "context": {"page": {"path": "/product/sku-1", "referrer": "https://shop.example/", "search": "",
                                 "title": "Stan and Friends Tee – Shop", "url": PAGE},
                        "userAgent": CHROME, "locale": "en-US",
                        "library": {"name": "analytics.js", "version": "next-1.70.0"}},
            "messageId": "ajs-next-1732176000%d-4f2c9a" % n, "writeKey": "wk_test_fixture_ajs",
            "sentAt": "2026-11-21T08:00:0%d.125Z" % n, "_metadata": {"bundled": ["Segment.io"], "unbundled": [],
                                                                   "bundledIds": []}}
    body.update(extra)
    return json.dumps(body, ensure_ascii=False)
segment_ajs = [
    line(1, "POST", "https://api.segment.io/v1/p", body=ajs("page", {"name": "Product", "category": "Shop",
         "properties": {"path": "/product/sku-1", "title": "Stan and Friends Tee – Shop", "url": PAGE}}, 1),
         content_type="text/plain"),
    line(2, "POST", "https://api.segment.io/v1/t", body=ajs("track", {"event": "Product Added",
         "properties": {"product_id": "sku-1", "price": 12.5, "quantity": 2, "currency": "EUR"}}, 2),
         content_type="text/plain"),
    line(3, "POST", "https://api.segment.io/v1/i", body=ajs("identify", {"traits": {"email": "ada@example.com",
         "plan": "pro"}}, 3), content_type="text/plain"),
]
write("segment-analytics-js.ndjson", segment_ajs)

# Meta pixel (fbevents.js 2.9): image GETs to /tr/, a form POST when the URL would be too long.
pixel = [("id", "1234567890123456")]
tail = [("dl", PAGE), ("rl", "https://shop.example/"), ("if", "false"), ("ts", "1732176000456"), ("sw", "1920"),
        ("sh", "1080"), ("v", "2.9.176"), ("r", "stable"), ("ec", "0"), ("o", "4126"),
        ("fbp", "fb.1.1732176000123.1398217362"), ("ler", "empty"), ("cdl", "API_unavailable"),
        ("it", "1732175999870"), ("coo", "false")]
meta = [
    line(1, "GET", "https://www.facebook.com/tr/?" + q(pixel + [("ev", "PageView")] + tail + [("rqm", "GET")])),
    line(2, "GET", "https://www.facebook.com/tr/?" + q(pixel + [("ev", "AddToCart")] + tail[:8] +
         [("cd[content_ids]", '["sku-1"]'), ("cd[content_type]", "product"), ("cd[value]", "12.5"),
          ("cd[currency]", "EUR")] + tail[8:] + [("rqm", "GET")])),
    line(3, "POST", "https://www.facebook.com/tr/", body=q(pixel + [("ev", "Purchase")] + tail[:8] +
         [("cd[contents]", '[{"id":"sku-1","quantity":2},{"id":"sku-7","quantity":1}]'), ("cd[value]", "59.9"),
          ("cd[currency]", "EUR"), ("cd[num_items]", "3"), ("cd[order_id]", "00123"),
          ("ud[em]", "8e3a4b2c1f0d9e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a")] + tail[8:] +
         [("rqm", "formPOST")]), content_type="application/x-www-form-urlencoded"),
]
write("meta-pixel.ndjson", meta)

# posthog-js 1.194: a gzip-js body (the browser sends it as text/plain without
# Content-Encoding, so a capture keeps it compressed), the older base64 data= form, and lz64.
events = [{"uuid": "0193507a-8c41-7e52-b1a0-6f7c1d2e3a4b", "event": "$pageview",
           "properties": {"$os": "Linux", "$browser": "Chrome", "$current_url": PAGE, "$lib": "web",
                          "$lib_version": "1.194.3", "token": "phc_test_fixture_js", "distinct_id": "user-42",
                          "$session_id": "0193507a-8c41-7e52-b1a0-aaaaaaaaaaaa"},
           "timestamp": "2026-11-21T08:00:01.000Z"},
          {"uuid": "0193507a-8c41-7e52-b1a0-6f7c1d2e3a4c", "event": "product added",
           "properties": {"sku": "sku-1", "price": 12.5, "$lib": "web", "token": "phc_test_fixture_js",
                          "distinct_id": "user-42"}, "timestamp": "2026-11-21T08:00:02.000Z"}]
packed = gzip.compress(json.dumps(events).encode(), mtime=0)
ph = "https://us.i.posthog.com/e/?ip=1&_=1732176000123&ver=1.194.3"
one = json.dumps(events[1]).encode()
posthog_js = [
    line(1, "POST", ph + "&compression=gzip-js", body=packed, binary=True, content_type="text/plain"),
    line(2, "POST", ph + "&compression=base64", body="data=" + urllib.parse.quote(base64.b64encode(one).decode(), safe=""),
         content_type="application/x-www-form-urlencoded"),
    line(3, "POST", ph + "&compression=lz64", body="data=N4IgLglmA2CmB0ArEA", content_type="application/x-www-form-urlencoded"),
]
write("posthog-js.ndjson", posthog_js)

# mixpanel-js 2.5x: base64 JSON in data= (GET image fallback and POST).
mp_event = {"event": "Viewed Product", "properties": {"$os": "Linux", "$browser": "Chrome", "$current_url": PAGE,
            "mp_lib": "web", "$lib_version": "2.55.1", "distinct_id": "user-42", "$device_id": "1931c0b2e4a-0",
            "token": "mp_token_test_fixture_js", "time": 1732176000.456, "sku": "sku-1", "price": 12.5}}
mp_b64 = base64.b64encode(json.dumps([mp_event]).encode()).decode()
mixpanel_js = [
    line(1, "GET", "https://api-js.mixpanel.com/track/?data=" + urllib.parse.quote(mp_b64, safe="") + "&ip=1&_=1732176000456"),
    line(2, "POST", "https://api-js.mixpanel.com/track/?verbose=1&ip=1&_=1732176000789",
         body="data=" + urllib.parse.quote(json.dumps([mp_event]), safe=""), content_type="application/x-www-form-urlencoded"),
]
write("mixpanel-js.ndjson", mixpanel_js)
