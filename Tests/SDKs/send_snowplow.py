"""Snowplow's Python tracker (snowplow-tracker) posts a tp2 batch to tracksnap serve: BASE_URL is argv[1]."""
import sys
from snowplow_tracker import (Emitter, PageView, SelfDescribing, SelfDescribingJson, StructuredEvent, Subject,
                              Tracker)

host, port = sys.argv[1].split("//")[1].split(":")
emitter = Emitter(host, protocol="http", port=int(port), method="post", batch_size=10)
tracker = Tracker("sp-e2e", emitter, subject=Subject().set_user_id("user-42").set_platform("pc"), app_id="shop")
context = SelfDescribingJson("iglu:com.acme/order_context/jsonschema/1-0-0", {"order_id": "o-1001"})
tracker.track(PageView(page_url="https://example.com/docs", page_title="Docs", referrer="https://example.com/"))
tracker.track(StructuredEvent(category="shop", action="add-to-basket", label="sku-1", property_="red", value=2,
                              context=[context]))
tracker.track(SelfDescribing(SelfDescribingJson("iglu:com.acme/checkout/jsonschema/1-0-0", {"step": 2}),
                             context=[context]))
tracker.flush()
