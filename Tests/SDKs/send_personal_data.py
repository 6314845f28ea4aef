"""A vendor's Python SDK sends one event carrying planted personal data, decoys beside it, to tracksnap serve.

Usage: send_personal_data.py VENDOR BASE_URL [PERSON], VENDOR one of segment, rudderstack, mixpanel, amplitude, posthog, ga4-mp
(GA4's Measurement Protocol, a JSON POST as Google documents it) and ga4-gtag (a /g/collect hit with
the query gtag.js builds). Each encoding tracksnap must read through is used once: the email as a
property, the phone inside a URL's query inside a property, the card inside JSON text inside a property. PERSON (default `ada`) starts the email's local part, so
that a second run sends another email.

The planted values (each must be exactly one finding) and the decoys (none may be one) are printed
as JSON on stdout, so that the test searches every output for them.
"""
import hashlib
import json
import sys
import urllib.parse
import urllib.request

vendor, base = sys.argv[1], sys.argv[2]
planted = {
    "email": f"{sys.argv[3] if len(sys.argv) > 3 else 'ada'}.{vendor}@example.com",
    "phone": "+44 20 7946 0958",
    "payment_card": "4111 1111 1111 1111",
}
decoys = {
    "sha256_email": hashlib.sha256(b"ada@example.com").hexdigest(),
    "card_failing_luhn": "4111 1111 1111 1112",
    "app_version": "10.15.7",
    "sku": "SKU-0123-4567-89",
    "amount": "1234.56",
    "order_id": "0f8fad5b-d9cb-469f-a165-70867728950e",
}
properties = dict(decoys)
properties["contact"] = planted["email"]
properties["callback_url"] = "https://shop.example/callback?" + urllib.parse.urlencode({"tel": planted["phone"]})
properties["payment"] = json.dumps({"number": planted["payment_card"], "brand": "visa"})
properties["revenue"] = 12.5

if vendor == "segment":
    from segment.analytics import Client

    client = Client("wk_test_pii_segment", host=base, sync_mode=False, upload_size=100)
    client.track("user-42", "Checkout Started", properties)
    client.flush()
    client.join()
elif vendor == "rudderstack":
    from rudderstack.analytics.client import Client

    client = Client("wk_test_pii_rudder", host=base, sync_mode=False)
    client.track("user-42", "Checkout Started", properties)
    client.flush()
    client.join()
elif vendor == "mixpanel":
    import mixpanel

    consumer = mixpanel.Consumer(api_host=base.split("//")[1], events_url=base + "/track")
    mixpanel.Mixpanel("mp_token_test_pii", consumer=consumer).track("user-42", "Checkout Started", properties)
elif vendor == "amplitude":
    from amplitude import Amplitude, BaseEvent, Config

    client = Amplitude("amp_key_test_pii", configuration=Config(server_url=base + "/2/httpapi"))
    client.track(BaseEvent(event_type="Checkout Started", user_id="user-42", event_properties=properties))
    client.flush()
    client.shutdown()
elif vendor == "posthog":
    from posthog import Posthog

    client = Posthog("phc_test_pii_key", host=base, flush_at=50, sync_mode=False)
    client.capture("checkout started", distinct_id="user-42", properties=properties)
    client.flush()
    client.shutdown()
elif vendor == "ga4-mp":
    body = {"client_id": "1234.5678", "events": [{"name": "begin_checkout", "params": properties}]}
    request = urllib.request.Request(
        base + "/mp/collect?measurement_id=G-TEST123&api_secret=test_secret_pii", data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"}, method="POST")
    urllib.request.urlopen(request).read()
elif vendor == "ga4-gtag":
    # gtag.js: event parameters as ep.NAME (strings) and epn.NAME (numbers) in the query.
    query = [("v", "2"), ("tid", "G-TEST123"), ("cid", "1234.5678"), ("en", "begin_checkout")]
    query += [("epn." + k if isinstance(v, float) else "ep." + k, str(v)) for k, v in properties.items()]
    urllib.request.urlopen(urllib.request.Request(
        base + "/g/collect?" + urllib.parse.urlencode(query), data=b"", method="POST")).read()
else:
    sys.exit(f"unknown vendor {vendor}")

print(json.dumps({"planted": planted, "decoys": decoys}))
