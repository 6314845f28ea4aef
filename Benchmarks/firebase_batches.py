"""The Firebase benchmark's workload, and its Python peer.

    firebase_batches.py write FILE [BATCHES]   writes FILE: one base64 protobuf Batch a line
    firebase_batches.py measure FILE           reads every batch with bbpb, prints a result line

`write` makes, the same on every run, BATCHES Firebase Analytics uploads (the body the iOS SDK
posts to app-measurement.com/a, before gzip) as the decoder's field map reads them
(Sources/TracksnapDecoders/Vendors/VendorDecoder+Firebase.swift): a Batch of one Bundle with the
app and device fields, 4 user properties and 10 to 40 events, each event 3 to 10 parameters
(strings, integers, doubles; automatic events and parameters with their `_` wire names). It
prints how many events it wrote.

`measure` decodes the base64 first, then times one pass of `blackboxprotobuf.decode_message` over
the bodies (schemaless, as tracksnap's `ProtobufValue.read`) and counts the events it finds (the
entries of field 2 of each bundle); it prints `bbpb BATCHES EVENTS SECONDS`.
"""

import base64
import random
import sys
import time


def varint(value):
    value &= (1 << 64) - 1
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def field(number, wire, payload):
    return varint(number << 3 | wire) + payload


def text(number, value):
    data = value.encode()
    return field(number, 2, varint(len(data)) + data)


def integer(number, value):
    return field(number, 0, varint(value))


def message(number, body):
    return field(number, 2, varint(len(body)) + body)


def double(number, value):
    import struct
    return field(number, 1, struct.pack("<d", value))


EVENTS = ["_vs", "_e", "_s", "purchase", "add_to_cart", "view_item", "select_content", "login", "search", "share"]
PARAMETERS = ["_o", "_sc", "_si", "_et", "item_id", "currency", "value", "quantity", "content_type", "method",
              "search_term", "_sn", "_sid", "_sno"]


def parameter(rng, name):
    body = text(1, name)
    kind = rng.randrange(3)
    if kind == 0:
        body += text(2, rng.choice(["app", "auto", "EUR", "CartViewController", "SKU-%d" % rng.randrange(1000)]))
    elif kind == 1:
        body += integer(3, rng.randrange(-2**40, 2**40))
    else:
        body += double(5, rng.randrange(1, 100000) / 100)
    return message(1, body)


def batch(rng, start):
    events = b""
    count = rng.randrange(10, 41)
    for index in range(count):
        names = rng.sample(PARAMETERS, rng.randrange(3, 11))
        body = b"".join(parameter(rng, name) for name in names)
        body += text(2, rng.choice(EVENTS)) + integer(3, start + index * 250) + integer(4, start + index * 250 - 90)
        events += message(2, body)
    properties = b""
    for name, value in [("_fot", 1763996400000), ("_fi", 1), ("_lte", 98231), ("plan", "pro")]:
        body = integer(1, start - 5) + text(2, name)
        body += text(3, value) if isinstance(value, str) else integer(4, value)
        properties += message(3, body)
    bundle = integer(1, 1) + events + properties + integer(4, start + 60000) + integer(5, start) + integer(6, start + count * 250)
    bundle += text(8, "ios") + text(9, "17.5.1") + text(10, "iPhone15,3") + text(11, "en-us") + integer(12, 60)
    bundle += text(14, "com.example.shop") + text(16, "4.2.0") + integer(17, 110500)
    bundle += text(21, "%032X" % rng.getrandbits(128)) + integer(23, rng.randrange(1, 500))
    bundle += text(25, "1:1234567890:ios:abcdef0123456789")
    return message(1, bundle), count


def write(path, batches):
    rng = random.Random(29)
    total = 0
    with open(path, "w") as out:
        for index in range(batches):
            body, count = batch(rng, 1764000000000 + index * 60000)
            total += count
            out.write(base64.b64encode(body).decode() + "\n")
    print(total)


def measure(path):
    import blackboxprotobuf

    with open(path) as handle:
        bodies = [base64.b64decode(line) for line in handle if line.strip()]
    events = 0
    start = time.perf_counter()
    for body in bodies:
        decoded, _ = blackboxprotobuf.decode_message(body)
        bundles = decoded.get("1", [])
        for bundle in bundles if isinstance(bundles, list) else [bundles]:
            found = bundle.get("2", [])
            events += len(found) if isinstance(found, list) else 1
    seconds = time.perf_counter() - start
    print(f"bbpb {len(bodies)} {events} {seconds:.6f}")


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 2000)
    else:
        measure(sys.argv[2])
