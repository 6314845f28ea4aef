"""Snowplow's Python tracker sends a self-describing checkout event with an order context to tracksnap serve, for the Iglu tests.

    send_snowplow_plan_events.py BASE_URL [DEFECT]

With no DEFECT both conform to the registry in iglu/; a DEFECT makes exactly one thing wrong:
`wrong_type` (the step as a string), `missing_required` (no step), `outside_range` (step 0),
`pattern` (the context's order_id "x-1"), `forbidden` (a coupon the checkout schema does not allow),
`unknown_schema` (an event whose schema the registry lacks).
"""
import sys
from snowplow_tracker import Emitter, SelfDescribing, SelfDescribingJson, Subject, Tracker

defect = sys.argv[2] if len(sys.argv) > 2 else None
host, port = sys.argv[1].split("//")[1].split(":")
emitter = Emitter(host, protocol="http", port=int(port), method="post", batch_size=10)
tracker = Tracker("sp-plan", emitter, subject=Subject().set_user_id("user-42"), app_id="shop")
context = SelfDescribingJson("iglu:com.acme/order_context/jsonschema/1-0-0",
                             {"order_id": "x-1" if defect == "pattern" else "o-1001"})
step = {"wrong_type": "2", "outside_range": 0}.get(defect, 2)
data = {} if defect == "missing_required" else {"step": step}
if defect == "forbidden":
    data["coupon"] = "SPRING"
tracker.track(SelfDescribing(SelfDescribingJson("iglu:com.acme/checkout/jsonschema/1-0-0", data), context=[context]))
if defect == "unknown_schema":
    tracker.track(SelfDescribing(SelfDescribingJson("iglu:com.acme/wishlist/jsonschema/1-0-0", {"sku": "sku-1"})))
tracker.flush()
