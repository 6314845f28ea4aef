"""Segment's Python SDK (segment-analytics-python) sends a batch to tracksnap serve: BASE_URL is argv[1].

With "-" as BASE_URL the SDK sends to its own default HTTPS host (through HTTPS_PROXY, as tracksnap
serve --intercept sees it).

An optional argv[2] makes one real change to the tracking, as a later release of an app might:
`rename` renames "Order Completed", `drop` drops its `currency`, `change` changes its `revenue`,
`twice` tracks it twice.
"""
import sys
from segment.analytics import Client

change = sys.argv[2] if len(sys.argv) > 2 else None
client = Client("wk_test_e2e_segment", host=None if sys.argv[1] == "-" else sys.argv[1], sync_mode=False, upload_size=100)
client.identify("user-42", {"email": "ada@example.com", "plan": "pro"})
order = {"order_id": "o-1001", "revenue": 13 if change == "change" else 12.5, "currency": "EUR",
         "products": [{"sku": "sku-1", "quantity": 2}]}
if change == "drop":
    del order["currency"]
for _ in range(2 if change == "twice" else 1):
    client.track("user-42", "Order Complete" if change == "rename" else "Order Completed", order)
client.page("user-42", "Docs", "Getting Started", {"url": "https://example.com/docs"})
client.screen("user-42", "Onboarding", "Welcome", {"step": 1})
client.flush()
client.join()
