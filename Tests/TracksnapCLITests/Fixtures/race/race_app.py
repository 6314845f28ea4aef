"""A checkout whose three analytics calls race: each is sent from its own thread after a random
delay, in its own request, as analytics.js sends a call (POST BASE_URL/v1/track). Every run draws
fresh message ids, anonymous ids and timestamps.

    python race_app.py BASE_URL [--drop EVENT] [--rename OLD=NEW] [--machine linux|mac]

--drop leaves an event out, --rename sends one under another name (the real changes a snapshot
must catch); --machine says which machine and SDK version the app runs on: its user agent, OS,
library version, locale, time zone and screen, which a snapshot recorded on one must not depend on.
"""
import argparse
import json
import random
import threading
import time
import urllib.request
import uuid
from datetime import datetime, timezone

MACHINES = {
    "linux": {
        "library": {"name": "analytics.js", "version": "next-1.70.0"},
        "userAgent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
        "os": {"name": "Linux", "version": "6.8.0"},
        "locale": "en-US",
        "timezone": "Europe/Berlin",
        "screen": {"width": 1920, "height": 1080, "density": 1},
    },
    "mac": {
        "library": {"name": "analytics.js", "version": "next-1.74.2"},
        "userAgent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
        "os": {"name": "macOS", "version": "15.1"},
        "locale": "fr-FR",
        "timezone": "America/New_York",
        "screen": {"width": 1512, "height": 982, "density": 2},
    },
}

CHECKOUT = [
    ("Checkout Started", {"cart_id": "c-77", "currency": "EUR"}),
    ("Coupon Applied", {"coupon": "WELCOME10"}),
    ("Order Completed", {"order_id": "o-1001", "revenue": 12.5, "currency": "EUR"}),
]


def send(base_url, name, properties, machine, anonymous_id):
    time.sleep(random.uniform(0, 0.05))
    message = {
        "type": "track",
        "event": name,
        "properties": properties,
        "anonymousId": anonymous_id,
        "userId": "user-42",
        "messageId": f"ajs-next-{int(time.time() * 1000)}-{uuid.uuid4()}",
        "timestamp": datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "context": dict(MACHINES[machine], page={"path": "/checkout"}),
        "writeKey": "wk_test_race_app",
    }
    request = urllib.request.Request(
        f"{base_url}/v1/track", data=json.dumps(message).encode(), method="POST",
        headers={"Content-Type": "text/plain"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        answer.read()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base_url")
    parser.add_argument("--drop")
    parser.add_argument("--rename")
    parser.add_argument("--machine", default="linux", choices=sorted(MACHINES))
    options = parser.parse_args()
    renamed = dict([options.rename.split("=", 1)]) if options.rename else {}
    anonymous_id = str(uuid.uuid4())
    threads = [
        threading.Thread(target=send, args=(options.base_url, renamed.get(name, name), properties, options.machine,
                                            anonymous_id))
        for name, properties in CHECKOUT if name != options.drop
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


if __name__ == "__main__":
    main()
