"""A tiny capture server: every request it receives becomes one tracksnap NDJSON line.

Usage: python3 capture_server.py OUT.ndjson [RAW.ndjson]
Listens on 127.0.0.1 (port 0), prints the port on stdout, answers 200 with the JSON body each
SDK accepts. OUT gets bodies with Content-Encoding undone, as tracksnap's capture writes them;
RAW (optional) gets the bytes exactly as sent, as a proxy that keeps encodings would record them.
"""
import base64, gzip, json, sys, threading, zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
counter = [0]

def body_fields(data):
    if not data:
        return {}
    try:
        return {"body": data.decode("utf-8"), "bodyEncoding": "text"}
    except UnicodeDecodeError:
        return {"body": base64.b64encode(data).decode("ascii"), "bodyEncoding": "base64"}

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        decoded = raw
        encoding = (self.headers.get("Content-Encoding") or "").lower()
        if encoding in ("gzip", "x-gzip"):
            decoded = gzip.decompress(raw)
        elif encoding == "deflate":
            decoded = zlib.decompress(raw)
        with lock:
            counter[0] += 1
            record = {
                "id": str(counter[0]),
                "method": self.command,
                "url": "http://" + self.headers.get("Host", "127.0.0.1") + self.path,
                "headers": [{"name": k, "value": v} for k, v in self.headers.items()],
            }
            for path, body in ((sys.argv[1], decoded), (sys.argv[2] if len(sys.argv) > 2 else None, raw)):
                if path:
                    with open(path, "a") as out:
                        out.write(json.dumps({**record, **body_fields(body)}, sort_keys=True) + "\n")
        # Mixpanel wants {"status":1}, Amplitude {"code":200}, the others accept any 200.
        reply = json.dumps({"status": 1, "code": 200, "success": True}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    do_GET = do_POST = do_PUT = handle_any

    def log_message(self, *args):
        pass

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
