"""The plan benchmark's workload, and its Python peers.

    plan_events.py write FOLDER [EVENTS]        writes FOLDER/plan.json and FOLDER/events.ndjson
    plan_events.py measure FOLDER jsonschema    validates every event once, prints a result line
    plan_events.py measure FOLDER jsonschema-rs

`write` makes, the same on every run, a native tracking plan of 200 track events (draft-07
schemas of 5 to 15 properties: types, required, enums, patterns, bounds, nested objects, arrays,
nullable values, and `$ref`s to the shared `product` and `address` definitions in about a third
of them) and EVENTS events as JSON lines (`{"event": NAME, "properties": {...}}`), one in twenty
given one defect that makes it invalid (a wrong type, a missing required property, a value outside
an enum or pattern, a property the schema forbids, a bad nested value). It prints how many events
it meant to be valid.

`measure` compiles one validator per schema (`Draft7Validator(schema)`, or
`jsonschema_rs.validator_for(schema)`), parses the events, then times one pass of `is_valid` over
them, each event against its event's schema by name; it prints `NAME VALID SECONDS`.
"""

import json
import random
import sys
import time

OBJECTS = ["Product", "Order", "Cart", "Checkout", "Coupon", "Wishlist", "Review", "Search", "Account",
           "Subscription", "Payment", "Shipment", "Refund", "Promotion", "Video", "Article", "Notification",
           "Support Ticket", "Invite", "Store"]
ACTIONS = ["Viewed", "Added", "Removed", "Updated", "Shared", "Completed", "Started", "Failed",
           "Clicked", "Dismissed"]
DEFINITIONS = {
    "product": {
        "type": "object",
        "properties": {
            "sku": {"type": "string", "pattern": "^SKU-[0-9]{3,6}$"},
            "name": {"type": "string", "minLength": 1, "maxLength": 80},
            "price": {"type": "number", "minimum": 0},
            "quantity": {"type": "integer", "minimum": 1, "maximum": 99},
            "category": {"enum": ["books", "games", "garden", "kitchen", "toys"]},
        },
        "required": ["sku", "price", "quantity"],
        "additionalProperties": False,
    },
    "address": {
        "type": "object",
        "properties": {
            "street": {"type": "string", "maxLength": 120},
            "city": {"type": "string", "minLength": 1},
            "postal_code": {"type": "string", "pattern": "^[0-9]{5}(-[0-9]{4})?$"},
            "country": {"enum": ["DE", "FR", "GB", "NL", "US"]},
        },
        "required": ["city", "country"],
    },
}
# Each kind of property: its schema, a valid value, an invalid value (of the right type when
# possible, so that the defect is a keyword's and not only a type's).
KINDS = {
    "id": ({"type": "string", "pattern": "^[a-z]{2,4}-[0-9]{4,10}$"},
           lambda r: f"{r.choice(['ord', 'usr', 'cart', 'pr'])}-{r.randrange(10**4, 10**9)}", "ID 12"),
    "currency": ({"type": "string", "enum": ["EUR", "GBP", "JPY", "USD"]},
                 lambda r: r.choice(["EUR", "GBP", "JPY", "USD"]), "eur"),
    "amount": ({"type": "number", "minimum": 0, "maximum": 100000},
               lambda r: round(r.uniform(0, 5000), 2), -1.5),
    "count": ({"type": "integer", "minimum": 0, "maximum": 1000}, lambda r: r.randrange(0, 1000), 2.5),
    "flag": ({"type": "boolean"}, lambda r: r.random() < 0.5, "yes"),
    "label": ({"type": "string", "minLength": 1, "maxLength": 64},
              lambda r: r.choice(["summer sale", "home", "banner top", "email", "push", "Winter 2026"]), ""),
    "source": ({"enum": ["web", "ios", "android", "email", "partner"]},
               lambda r: r.choice(["web", "ios", "android", "email", "partner"]), "fax"),
    "note": ({"type": ["string", "null"], "maxLength": 200},
             lambda r: None if r.random() < 0.3 else "deliver after 6 pm", 42),
    "tags": ({"type": "array", "items": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"}, "maxItems": 10,
              "uniqueItems": True},
             lambda r: r.sample(["new", "sale", "gift", "eco", "b2b", "vip", "last_chance"], r.randrange(0, 4)),
             ["new", "new"]),
    "rating": ({"type": "integer", "enum": [1, 2, 3, 4, 5]}, lambda r: r.randrange(1, 6), 6),
    "position": ({"type": "object",
                  "properties": {"index": {"type": "integer", "minimum": 0}, "list": {"type": "string"}},
                  "required": ["index"], "additionalProperties": False},
                 lambda r: {"index": r.randrange(0, 40), "list": r.choice(["search", "home", "related"])},
                 {"index": -1}),
    "products": ({"type": "array", "items": {"$ref": "#/definitions/product"}, "minItems": 1, "maxItems": 20},
                 lambda r: [product(r) for _ in range(r.randrange(1, 5))],
                 [{"sku": "SKU-001", "price": "9.99", "quantity": 1}]),
    "address": ({"$ref": "#/definitions/address"},
                lambda r: {"city": r.choice(["Berlin", "Lyon", "Leeds"]), "country": r.choice(["DE", "FR", "GB"]),
                           "postal_code": f"{r.randrange(10000, 99999)}", "street": "1 Main Street"},
                {"city": "Berlin", "country": "DE", "postal_code": "1O115"}),
}
NAMES = {
    "id": ["order_id", "user_ref", "cart_id", "session_ref", "item_id"],
    "currency": ["currency"],
    "amount": ["revenue", "value", "total", "discount", "tax", "shipping"],
    "count": ["step", "quantity", "results", "page", "duration_s"],
    "flag": ["logged_in", "is_gift", "first_time", "autoplay", "success"],
    "label": ["campaign", "placement", "query", "title", "variant"],
    "source": ["source"],
    "note": ["note", "reason"],
    "tags": ["tags"],
    "rating": ["rating"],
    "position": ["position"],
    "products": ["products"],
    "address": ["shipping_address"],
}


def product(r):
    item = {"sku": f"SKU-{r.randrange(100, 999999)}", "price": round(r.uniform(1, 300), 2),
            "quantity": r.randrange(1, 5)}
    if r.random() < 0.7:
        item["name"] = r.choice(["Garden hose", "Chess set", "Teapot", "Novel", "Kite"])
    if r.random() < 0.5:
        item["category"] = r.choice(["books", "games", "garden", "kitchen", "toys"])
    return item


def plan(r):
    """200 events: each a list of (property, kind, required) and its schema."""
    events = []
    for number in range(200):
        name = f"{OBJECTS[number % 20]} {ACTIONS[number // 20]}"
        chosen = {}
        # One event in three carries products or an address, by $ref to the shared definitions.
        extra = [] if number % 3 else [r.choice(["products", "address"])]
        size = r.randrange(5, 16) - len(extra)
        while len(chosen) < size:
            kind = r.choice([k for k in KINDS if k not in ("products", "address")])
            chosen.setdefault(r.choice(NAMES[kind]), kind)
        for kind in extra:
            chosen[NAMES[kind][0]] = kind
        fields = [(prop, kind, r.random() < 0.5) for prop, kind in chosen.items()]
        fields[0] = (fields[0][0], fields[0][1], True)  # every event requires something
        schema = {
            "type": "object",
            "properties": {prop: KINDS[kind][0] for prop, kind, _ in fields},
            "required": [prop for prop, _, required in fields if required],
        }
        if number % 3 != 2:
            schema["additionalProperties"] = False
        uses = [kind for _, kind, _ in fields if kind in ("products", "address")]
        if uses:
            schema["definitions"] = {("product" if kind == "products" else kind): DEFINITIONS[
                "product" if kind == "products" else kind] for kind in uses}
        events.append((name, fields, schema))
    return events


def event(r, name, fields, schema, defective):
    properties = {prop: KINDS[kind][1](r) for prop, kind, required in fields if required or r.random() < 0.7}
    if not defective:
        return properties
    defects = ["type", "value"]
    if schema["required"]:
        defects.append("missing")
    if schema.get("additionalProperties") is False:
        defects.append("extra")
    defect = r.choice(defects)
    present = [(prop, kind) for prop, kind, _ in fields if prop in properties]
    prop, kind = r.choice(present)
    if defect == "missing":
        del properties[r.choice(schema["required"])]
    elif defect == "extra":
        properties["unplanned_property"] = 1
    elif defect == "type":
        properties[prop] = {"unexpected": True} if kind not in ("position", "address") else "unexpected"
    else:
        properties[prop] = KINDS[kind][2]
    return properties


def write(folder, count):
    r = random.Random(20)
    events = plan(r)
    with open(f"{folder}/plan.json", "w") as file:
        json.dump({"plan": 1, "events": [{"type": "track", "name": name, "schema": schema}
                                         for name, _, schema in events]}, file, indent=1)
    valid = 0
    with open(f"{folder}/events.ndjson", "w") as file:
        for i in range(count):
            name, fields, schema = events[r.randrange(len(events))]
            defective = i % 20 == 7
            valid += not defective
            file.write(json.dumps({"event": name, "properties": event(r, name, fields, schema, defective)},
                                  separators=(",", ":")) + "\n")
    print(valid)


def measure(folder, peer):
    with open(f"{folder}/plan.json") as file:
        definitions = json.load(file)["events"]
    if peer == "jsonschema":
        import jsonschema
        validators = {d["name"]: jsonschema.Draft7Validator(d["schema"]).is_valid for d in definitions}
    else:
        import jsonschema_rs
        validators = {d["name"]: jsonschema_rs.validator_for(d["schema"]).is_valid for d in definitions}
    with open(f"{folder}/events.ndjson") as file:
        events = [(e["event"], e["properties"]) for e in map(json.loads, file)]
    start = time.perf_counter()
    valid = 0
    for name, properties in events:
        valid += validators[name](properties)
    seconds = time.perf_counter() - start
    print(peer, valid, f"{seconds:.6f}")


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 100_000)
    else:
        measure(sys.argv[2], sys.argv[3])
