"""RudderStack's Python SDK (rudder-sdk-python) sends a gzip batch to tracksnap serve: BASE_URL is argv[1].

With "-" as BASE_URL the SDK sends to its own default HTTPS host (through HTTPS_PROXY, as tracksnap
serve --intercept sees it).
"""
import sys
from rudderstack.analytics.client import Client

client = Client("wk_test_e2e_rudder", host=None if sys.argv[1] == "-" else sys.argv[1], sync_mode=False)
client.identify("user-42", {"email": "ada@example.com"})
client.track("user-42", "Product Viewed", {"sku": "sku-1", "price": 9.99})
client.page("user-42", "Docs", "Pricing", {"path": "/pricing"})
client.flush()
client.join()
