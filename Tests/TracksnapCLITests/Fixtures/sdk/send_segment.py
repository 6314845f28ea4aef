"""Segment's Python SDK (segment-analytics-python) sends a batch to tracksnap serve: BASE_URL is argv[1]."""
import sys
from segment.analytics import Client

client = Client("wk_test_e2e_segment", host=sys.argv[1], sync_mode=False, upload_size=100)
client.identify("user-42", {"email": "ada@example.com", "plan": "pro"})
client.track("user-42", "Order Completed", {"order_id": "o-1001", "revenue": 12.5, "currency": "EUR",
             "products": [{"sku": "sku-1", "quantity": 2}]})
client.page("user-42", "Docs", "Getting Started", {"url": "https://example.com/docs"})
client.screen("user-42", "Onboarding", "Welcome", {"step": 1})
client.flush()
client.join()
