"""Records a HAR with mitmproxy itself: mitmdump as a reverse proxy in front of a backend on
loopback, writing its flows with `--set hardump=FILE` when it stops, as a user would.

Usage (with the mitmproxy venv's Python): mitmdump_har.py HAR FOLDER
The backend answers JSON (with a non-ASCII name), UTF-8 text, bytes that are not text, JSON
gzipped on the wire, and a POST with 201. Each answer's body, as the client got it through
mitmdump, is written to FOLDER/NAME.body; stdout gets one line per request, tab-separated:
NAME, METHOD, PATH, STATUS, the request's body. Nothing leaves 127.0.0.1.
"""

import gzip
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

PRODUCTS = json.dumps({"products": [{"sku": "A-1", "name": "Crème mug", "price": 12.5}]}, ensure_ascii=False).encode()
TERMS = "Conditions générales — version 3\nNo refunds on Tuesdays.\n".encode()
LOGO = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + bytes(range(256))[::-1] + bytes(range(32))
CATALOG = json.dumps({"catalog": [{"sku": f"S-{n}", "stock": n * 7} for n in range(40)]}).encode()


class Backend(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

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
            self.answer(200, "application/json", PRODUCTS)
        elif self.path == "/terms.txt":
            self.answer(200, "text/plain; charset=utf-8", TERMS)
        elif self.path == "/logo.png":
            self.answer(200, "image/png", LOGO)
        else:
            self.answer(200, "application/json", gzip.compress(CATALOG, mtime=0), [("Content-Encoding", "gzip")])

    def do_POST(self):
        sent = self.rfile.read(int(self.headers["Content-Length"]))
        self.answer(201, "application/json", json.dumps({"cart": "c-42", "received": json.loads(sent)}).encode())

    def log_message(self, *arguments):
        pass


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


har, folder = Path(sys.argv[1]), Path(sys.argv[2])
backend = ThreadingHTTPServer(("127.0.0.1", 0), Backend)
threading.Thread(target=backend.serve_forever, daemon=True).start()
port = free_port()
mitmdump = subprocess.Popen([
    os.path.join(os.path.dirname(sys.executable), "mitmdump"), "--mode", f"reverse:http://127.0.0.1:{backend.server_port}",
    "--listen-host", "127.0.0.1", "--listen-port", str(port), "--set", f"confdir={folder / 'mitmproxy'}",
    "--set", f"hardump={har}", "-q",
])
for _ in range(2400):  # two minutes
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        break
    except OSError:
        time.sleep(0.05)
else:
    sys.exit(f"mitmdump did not listen on {port}")

requests = [
    ("products", "GET", "/v1/products?currency=EUR", None),
    ("terms", "GET", "/terms.txt", None),
    ("logo", "GET", "/logo.png", None),
    ("catalog", "GET", "/v1/catalog", None),
    ("cart", "POST", "/v1/cart", '{"sku": "A-1", "quantity": 2}'),
]
lines = []
for name, method, path, body in requests:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", method=method, data=body.encode() if body else None,
        headers={"Content-Type": "application/json"} if body else {})
    with urllib.request.urlopen(request, timeout=30) as response:
        received = response.read()
        if response.headers.get("Content-Encoding") == "gzip":
            received = gzip.decompress(received)  # as the app's HTTP client reads it
        (folder / f"{name}.body").write_bytes(received)
        lines.append("\t".join([name, method, path, str(response.status), body or ""]))
mitmdump.send_signal(signal.SIGINT)  # the HAR is written as mitmdump stops
if mitmdump.wait(timeout=30) != 0 or not har.exists():
    sys.exit(f"mitmdump exited with {mitmdump.returncode} and wrote no {har}")
backend.shutdown()
print("\n".join(lines))
