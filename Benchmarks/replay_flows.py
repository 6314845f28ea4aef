"""The replay benchmark's flows: 10,000 interactions with a shop's API, the same on every run.

Usage (with the mitmproxy venv's Python, which has mitmproxy's own flow writer):
  replay_flows.py write DIR        writes DIR/cassette.json (tracksnap's format),
                                   DIR/flows.mitm (mitmproxy's, for --server-replay) and
                                   DIR/requests.lua (wrk cycling through every request)
  replay_flows.py check PORT NAME  sends every 100th request to a replaying proxy on
                                   127.0.0.1:PORT and fails unless each answer is the recorded
                                   status and body, byte for byte

Both files are written from the same list, rather than recorded through a proxy: no backend has
to answer 10,000 requests first, and the two cannot differ by a run's timing.
"""

import json
import random
import sys
import urllib.request
import zlib
from pathlib import Path

COUNT = 10_000
ORIGIN = "https://api.shop.example"
WORDS = "mug lamp chair desk shelf rug vase clock frame pillow blanket candle bowl plate glass".split()


def interactions():
    """(method, path, request body or None, status, response body), each request distinct."""
    rng = random.Random(19)
    seen = set()
    out = []
    while len(out) < COUNT:
        kind = rng.random()
        body = None
        status = 200
        if kind < 0.35:
            sku = f"SKU-{rng.randrange(100000):05d}"
            path = f"/v1/products/{sku}?currency={rng.choice(['EUR', 'USD', 'GBP'])}&lang={rng.choice(['en', 'fr', 'de'])}"
            answer = product(rng, sku)
        elif kind < 0.60:
            term = rng.choice(WORDS)
            path = f"/v1/search?q={term}&page={rng.randrange(1, 200)}&sort={rng.choice(['price', 'rating', 'new'])}"
            answer = {"query": term, "total": rng.randrange(1000), "results": [product(rng) for _ in range(rng.randrange(2, 6))]}
        elif kind < 0.75:
            user = rng.randrange(1, 5000)
            path = f"/v1/users/{user}/orders?limit={rng.choice([5, 10, 20])}"
            answer = {"user": user, "orders": [order(rng) for _ in range(rng.randrange(1, 8))]}
        elif kind < 0.90:
            slug = rng.choice(WORDS) + "s"
            path = f"/v1/categories/{slug}/products?page={rng.randrange(1, 50)}"
            answer = {"category": slug, "products": [product(rng) for _ in range(rng.randrange(1, 5))]}
        else:
            cart = f"c-{rng.randrange(1 << 32):08x}"
            path = f"/v1/carts/{cart}/items"
            body = json.dumps({"sku": f"SKU-{rng.randrange(100000):05d}", "quantity": rng.randrange(1, 4)}, separators=(",", ":"))
            answer = {"cart": cart, "items": rng.randrange(1, 9), "total": round(rng.uniform(5, 500), 2)}
            status = 201
        method = "GET" if body is None else "POST"
        if (method, path, body) in seen:
            continue
        seen.add((method, path, body))
        # Compact, as most APIs send it; keys sorted for products and carts, as a Go backend sends them.
        ordered = path.startswith(("/v1/products/", "/v1/carts/"))
        out.append((method, path, body, status, json.dumps(answer, separators=(",", ":"), sort_keys=ordered).encode()))
    return out


def product(rng, sku=None):
    return {
        "sku": sku or f"SKU-{rng.randrange(100000):05d}",
        "name": " ".join(rng.choice(WORDS) for _ in range(3)).title(),
        "price": round(rng.uniform(3, 400), 2),
        "stock": rng.randrange(200),
        "rating": round(rng.uniform(1, 5), 1),
        "tags": rng.sample(WORDS, 3),
        "description": " ".join(rng.choice(WORDS) for _ in range(rng.randrange(20, 60))),
    }


def order(rng):
    return {"id": f"o-{rng.randrange(1 << 40):010x}", "status": rng.choice(["paid", "shipped", "delivered"]),
            "total": round(rng.uniform(5, 900), 2), "lines": rng.randrange(1, 6)}


def headers(body):
    return {"Content-Type": "application/json", "Cache-Control": "no-store", "X-Request-Id": f"r-{zlib.crc32(body):08x}"}


def stored(answer):
    """An answer's body as tracksnap's recorder stores it: JSON when writing it back (compact, keys
    sorted) gives the very bytes, else the text."""
    value = json.loads(answer)
    same = json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode() == answer
    return {"json": value} if same else {"text": answer.decode()}


def write(folder):
    from mitmproxy import http, io
    from mitmproxy.test import tflow

    folder = Path(folder)
    flows = interactions()
    cassette = {"cassette": 1, "name": "bench", "interactions": []}
    for method, path, body, status, answer in flows:
        request = {"method": method, "url": ORIGIN + path}
        if body is not None:
            request["headers"] = {"Content-Type": "application/json"}
            request["json"] = json.loads(body)
        cassette["interactions"].append({
            "request": request,
            "response": {"status": status, "headers": headers(answer), **stored(answer)},
            "recordedAt": "2026-11-24T19:00:00.000Z",
        })
    (folder / "cassette.json").write_text(json.dumps(cassette, indent=2))

    with open(folder / "flows.mitm", "wb") as file:
        writer = io.FlowWriter(file)
        for method, path, body, status, answer in flows:
            flow = tflow.tflow(resp=True)
            request_headers = {"Host": "api.shop.example"}
            if body is not None:
                request_headers["Content-Type"] = "application/json"
            flow.request = http.Request.make(method, ORIGIN + path, body or b"", request_headers)
            flow.response = http.Response.make(status, answer, headers(answer))
            writer.add(flow)

    def lua(text):
        return json.dumps(text)  # a JSON string is a Lua string literal for ASCII text

    lines = ["local all = {"]
    for method, path, body, _, _ in flows:
        if body is None:
            lines.append(f"  {{{lua(method)}, {lua(path)}}},")
        else:
            lines.append(f"  {{{lua(method)}, {lua(path)}, {lua(body)}}},")
    lines += [
        "}",
        "local requests = {}",
        "local n = 0",
        "init = function(args)",
        "  local json = {['Content-Type'] = 'application/json'}",
        "  for i, r in ipairs(all) do requests[i] = wrk.format(r[1], r[2], r[3] and json or nil, r[3]) end",
        "  n = (wrk.thread:get('offset') or 0) % #requests",
        "end",
        "request = function() n = n % #requests + 1; return requests[n] end",
        "setup = function(thread) thread:set('offset', math.random(#all)) end",
    ]
    (folder / "requests.lua").write_text("\n".join(lines) + "\n")
    print(f"{len(flows)} interactions", file=sys.stderr)


def check(port, name):
    flows = interactions()
    sample = flows[::100]
    wrong = []
    for method, path, body, status, answer in sample:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}{path}", method=method, data=body.encode() if body else None,
            headers={"Content-Type": "application/json"} if body else {})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                got_status, got = response.status, response.read()
        except urllib.error.HTTPError as error:
            got_status, got = error.code, error.read()
        if got_status != status or got != answer:
            wrong.append(f"  {method} {path}: {got_status}, {got[:120]!r}")
    print(f"{name}: {len(sample) - len(wrong)} of {len(sample)} sampled answers are the recorded status and body, byte for byte")
    if wrong:
        print("\n".join(wrong[:5]), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    if sys.argv[1:2] == ["write"]:
        write(sys.argv[2])
    elif sys.argv[1:2] == ["check"]:
        check(int(sys.argv[2]), sys.argv[3])
    else:
        sys.exit(__doc__)
