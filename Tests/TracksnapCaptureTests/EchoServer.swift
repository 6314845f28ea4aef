import Foundation
import TracksnapTestSupport

/// A local HTTP server for pass-through tests: answers every request with a JSON echo of its
/// method, path, headers and body. Python's standard library, started on 127.0.0.1 with port 0;
/// the test waits for the line announcing its port, never sleeps.
final class EchoServer: Sendable {
    let port: Int
    private let child: ChildProcess

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private static let script = #"""
        import http.server, json, sys
        class Echo(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def handle_any(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
                answer = json.dumps({"method": self.command, "path": self.path,
                                     "headers": {k.lower(): v for k, v in self.headers.items()},
                                     "body": body}).encode()
                self.send_response(207 if self.path.startswith("/status207") else 200)
                self.send_header("Content-Type", "application/json")
                self.send_header("X-Echo", "yes")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)
            do_GET = do_POST = do_PUT = do_DELETE = handle_any
            def log_message(self, *args): pass
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Echo)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    private init(port: Int, child: ChildProcess) {
        self.port = port
        self.child = child
    }

    /// Starts the server; its first line is the port, printed once it listens.
    static func start() async throws -> EchoServer {
        let child = try await ChildProcess.launch(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", Self.script])
        guard let port = Int(child.firstLine) else {
            child.signal(SIGKILL)
            throw EchoServerError(message: "the echo server did not print its port: \(child.firstLine)")
        }
        return EchoServer(port: port, child: child)
    }

    deinit {
        child.stop()
    }
}

struct EchoServerError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
