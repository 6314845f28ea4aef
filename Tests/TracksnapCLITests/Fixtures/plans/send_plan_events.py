"""Sends one shop's calls with Segment's or RudderStack's Python SDK to tracksnap serve, for the tracking plan tests.

    send_plan_events.py segment|rudderstack BASE_URL [DEFECT]

With no DEFECT every call conforms to the plans beside this script; a DEFECT makes exactly one thing
wrong: `wrong_type` (revenue as a string), `missing_required` (no order_id), `outside_enum` (currency
"XYZ"), `pattern` (order_id "x-1"), `forbidden` (a coupon the plan does not allow), `traits` (an
identify whose email is a number), `unplanned` (a track the plan lacks).
"""
import sys

vendor, base = sys.argv[1], sys.argv[2]
defect = sys.argv[3] if len(sys.argv) > 3 else None
if vendor == "segment":
    from segment.analytics import Client
    client = Client("wk_test_plan_segment", host=base, sync_mode=False, upload_size=100)
else:
    from rudderstack.analytics.client import Client
    client = Client("wk_test_plan_rudder", host=base, sync_mode=False)

client.identify("user-42", {"email": 42 if defect == "traits" else "ada@example.com", "plan": "pro"})
order = {"order_id": "x-1" if defect == "pattern" else "o-1001",
         "revenue": "12.5" if defect == "wrong_type" else 12.5,
         "currency": "XYZ" if defect == "outside_enum" else "EUR"}
if defect == "missing_required":
    del order["order_id"]
if defect == "forbidden":
    order["coupon"] = "SPRING"
client.track("user-42", "Order Completed", order)
client.track("user-42", "Product Viewed", {"sku": "sku-1"})
if defect == "unplanned":
    client.track("user-42", "Cart Abandoned", {"sku": "sku-1"})
client.flush()
client.join()
