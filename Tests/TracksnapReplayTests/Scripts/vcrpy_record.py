"""Records a vcrpy cassette of three requests to a backend on loopback, as a Python test would.

Usage: vcrpy_record.py CASSETTE
Prints the backend's port. The backend answers JSON (a new id each time), a PNG's first bytes,
and a POST with a cookie; the client sends a bearer token.
"""

import json
import sys
import threading
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import vcr


class Backend(BaseHTTPRequestHandler):
    def answer(self, status, content_type, body, headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path.startswith("/v1/products"):
            products = {"request": str(uuid.uuid4()), "products": [{"sku": "A-1", "price": 12.5}]}
            self.answer(200, "application/json", json.dumps(products).encode())
        else:
            self.answer(200, "image/png", bytes([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF]))

    def do_POST(self):
        sent = self.rfile.read(int(self.headers["Content-Length"]))
        cart = {"cart": "c-42", "received": json.loads(sent)}
        self.answer(201, "application/json", json.dumps(cart).encode(), [("Set-Cookie", "session=s3cr3t")])

    def log_message(self, *arguments):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Backend)
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f"http://127.0.0.1:{server.server_port}"
with vcr.use_cassette(sys.argv[1], record_mode="once"):
    urllib.request.urlopen(f"{base}/v1/products?currency=EUR").read()
    urllib.request.urlopen(f"{base}/logo.png").read()
    request = urllib.request.Request(
        f"{base}/v1/cart",
        data=json.dumps({"sku": "A-1"}).encode(),
        headers={"Content-Type": "application/json", "Authorization": "Bearer t0ken"},
    )
    urllib.request.urlopen(request).read()
server.shutdown()
print(server.server_port)
