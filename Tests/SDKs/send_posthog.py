"""PostHog's Python SDK (posthog) sends a batch to tracksnap serve: BASE_URL is argv[1].

With "-" as BASE_URL the SDK sends to its own default HTTPS host (through HTTPS_PROXY, as tracksnap
serve --intercept sees it). An optional argv[2] `change` changes the order's `revenue`, as a later
release of an app might.
"""
import sys
from posthog import Posthog

client = Posthog("phc_test_e2e_key", host=None if sys.argv[1] == "-" else sys.argv[1], flush_at=50, sync_mode=False)
revenue = 13 if sys.argv[2:] == ["change"] else 12.5
client.capture("order completed", distinct_id="user-42", properties={"order_id": "o-1001", "revenue": revenue})
client.capture("$pageview", distinct_id="user-42", properties={"$current_url": "https://example.com/docs"})
client.set(distinct_id="user-42", properties={"plan": "pro"})
client.flush()
client.shutdown()
