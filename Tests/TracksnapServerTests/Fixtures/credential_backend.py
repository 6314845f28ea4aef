"""A backend on loopback that answers every request with the credentials it is given: the
headers and the JSON body named in the JSON document of its one argument. Prints its port once
it listens. The cassette tests record it and look for every planted value in the file."""

import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PLANTS = json.loads(sys.argv[1])


class Backend(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        body = json.dumps(PLANTS["body"]).encode()
        self.send_response(PLANTS.get("status", 200))
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in PLANTS["headers"]:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = handle_any

    def log_message(self, *arguments):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Backend)
print(server.server_address[1], flush=True)
server.serve_forever()
