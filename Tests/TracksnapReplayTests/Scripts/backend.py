"""A backend on loopback for replay tests: every answer is new (a fresh id, the time), and it
demands a bearer token, as a real API would. Prints its port once it listens.
"""

import json
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Backend(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, status, value, headers=()):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, text in headers:
            self.send_header(name, text)
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        sent = self.rfile.read(length) if length else b""
        if self.headers.get("Authorization") != "Bearer s3cr3t-token":
            self.answer(401, {"error": "no token"})
            return
        self.answer(
            200,
            {"id": str(uuid.uuid4()), "at": time.time(), "path": self.path, "sent": sent.decode()},
            [("Set-Cookie", f"session={uuid.uuid4()}")],
        )

    do_GET = do_POST = handle_any

    def log_message(self, *arguments):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Backend)
print(server.server_address[1], flush=True)
server.serve_forever()
