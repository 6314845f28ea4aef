"""The demo shop's API on loopback: products, and orders that get a new id and time on every
call, behind a bearer token, as a real backend's answers are. Prints its port once it listens.
"""

import json
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PRODUCTS = [{"sku": "MUG-1", "name": "Mug", "price": 12.5}, {"sku": "TEE-2", "name": "T-shirt", "price": 19.0}]


class Shop(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, status, value):
        body = json.dumps(value, separators=(",", ":")).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Set-Cookie", f"session={uuid.uuid4()}")
        self.end_headers()
        self.wfile.write(body)

    def authorized(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.headers.get("Authorization") == "Bearer shop-s3cr3t":
            return True
        self.answer(401, {"error": "no token"})
        return False

    def do_GET(self):
        if self.authorized():
            self.answer(200, {"products": PRODUCTS, "served": time.time()})

    def do_POST(self):
        if self.authorized():
            self.answer(201, {"order": f"o-{uuid.uuid4()}", "total": 25.0, "created": time.time()})

    def log_message(self, *arguments):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Shop)
print(server.server_address[1], flush=True)
server.serve_forever()
