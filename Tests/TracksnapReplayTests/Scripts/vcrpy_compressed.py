"""Records a vcrpy cassette of a backend on loopback that compresses its answers, as a Python
test would: one answer gzip'd, one deflated, one brotli'd (brotli is in the venv `make sdk-venv`
makes), each asked with `requests` (vcrpy stores the answer decoded, Content-Encoding kept) and
with `urllib` (vcrpy stores it as it came, compressed, as `!!binary`). `replay` asks URLs again
through a proxy with `requests`.

Usage: vcrpy_compressed.py record CASSETTE  -> prints the backend's base URL
       vcrpy_compressed.py replay PROXY URL... -> prints one JSON object per line, as requests decoded it
                                                   (PROXY "-" for none)
"""

import gzip
import json
import sys
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import brotli
import requests


def answer(coding):
    """The JSON each coding's path answers, before it is compressed."""
    return {"coding": coding, "products": [{"sku": "A-1", "name": "mug " * 40}]}


CODINGS = {"gzip": gzip.compress, "deflate": zlib.compress, "br": brotli.compress}


class Backend(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        coding = self.path.split("?")[0].strip("/")
        body = CODINGS[coding](json.dumps(answer(coding)).encode())
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Encoding", coding)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


if sys.argv[1] == "record":
    import urllib.request

    import vcr

    server = ThreadingHTTPServer(("127.0.0.1", 0), Backend)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    with vcr.use_cassette(sys.argv[2], record_mode="once"):
        for coding in CODINGS:
            response = requests.get(f"{base}/{coding}", headers={"Accept-Encoding": "gzip, deflate, br"})
            assert response.json() == answer(coding), response.content
            request = urllib.request.Request(f"{base}/{coding}?client=urllib", headers={"Accept-Encoding": coding})
            urllib.request.urlopen(request).read()
    server.shutdown()
    print(base)
else:
    proxy = sys.argv[2]
    for url in sys.argv[3:]:
        response = requests.get(
            url,
            proxies={"http": proxy} if proxy != "-" else None,
            headers={"Accept-Encoding": "gzip, deflate, br"},
            timeout=30,
        )
        print(json.dumps({"status": response.status_code, "json": response.json()}))
