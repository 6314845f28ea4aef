"""The demo shop's app, in a few lines: it asks the shop's API for products and places an order
(through a proxy: tracksnap), and tells analytics what the user did, as Segment's wire format
says, with the order's id and total from the API's answer (to tracksnap's collector).

    python3 app.py --proxy URL --api URL --collector URL [--build 1.6]

Build 1.6 names its last event "Checkout Completed" instead of "Order Completed".
"""

import argparse
import json
import sys
import uuid
from datetime import datetime, timezone
from http.client import HTTPConnection
from urllib.parse import urlsplit


def call(base, method, url, body=None, headers=None):
    """Sends a request to the server at base (a proxy takes the absolute URL), returns the JSON answer."""
    parts = urlsplit(base)
    connection = HTTPConnection(parts.hostname, parts.port, timeout=10)
    data = None if body is None else json.dumps(body).encode()
    connection.request(method, url, body=data, headers={"Content-Type": "application/json", **(headers or {})})
    response = connection.getresponse()
    text = response.read().decode()
    if response.status >= 400:
        sys.exit(f"app: {method} {url} answered {response.status}: {text.splitlines()[0] if text else ''}")
    return json.loads(text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--proxy", required=True)
    parser.add_argument("--api", required=True)
    parser.add_argument("--collector", required=True)
    parser.add_argument("--build", default="1.5")
    arguments = parser.parse_args()
    token = {"Authorization": "Bearer shop-s3cr3t"}
    user = str(uuid.uuid4())

    def track(event, properties):
        message = {
            "type": "track", "event": event, "properties": properties, "anonymousId": user,
            "messageId": str(uuid.uuid4()), "timestamp": datetime.now(timezone.utc).isoformat(),
            "context": {"app": {"build": arguments.build}, "library": {"name": "shop-app", "version": "1.0"}},
        }
        call(arguments.collector, "POST", "/v1/batch", {"batch": [message]})

    products = call(arguments.proxy, "GET", f"{arguments.api}/v1/products", headers=token)["products"]
    track("Product List Viewed", {"products": [product["sku"] for product in products]})
    order = call(arguments.proxy, "POST", f"{arguments.api}/v1/orders", {"sku": products[0]["sku"]}, token)
    completed = "Checkout Completed" if arguments.build == "1.6" else "Order Completed"
    track(completed, {"order_id": order["order"], "total": order["total"], "currency": "EUR"})


main()
