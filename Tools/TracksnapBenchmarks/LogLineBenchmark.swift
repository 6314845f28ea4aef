import Foundation
import TracksnapServer
import TracksnapTraffic

/// Times what the collector does for each request's log line (`serve`'s default log), beside
/// the same requests recorded with `--quiet`: recording the request with its secrets
/// remembered for later lines (`CaptureStore.recordAttributed`), the line's redactor
/// (`recentRedactor`), the URL redacted and the line rendered (`RequestLogLine`). The requests are
/// `make bench-server`'s (wrk's GET with its one `Host` header), then the same with a secret the
/// first request carried (a bearer token) remembered, so that every line is checked against it.
/// The stderr write is not in it: the figure is the CPU the log line costs the event loop.
func runLogLineBenchmark() {
    print("\nLog line: per request, recorded and its log line made, as `serve` logs each request")
    print("case".padded(52) + "µs per request".padded(16, right: true))
    let count = 20_000
    let url = "http://127.0.0.1:8080/v1/e?ev=screen_view&screen=Home&sid=s-1a2b3c4d"
    let headers = [CapturedRequest.Header(name: "Host", value: "127.0.0.1:8080")]
    let cases: [(String, Bool, [CapturedRequest.Header]?)] = [
        ("--quiet: recorded only", false, nil),
        ("log on: recorded, line made", true, nil),
        ("log on, a bearer token remembered", true, [.init(name: "Authorization", value: "Bearer tok_7Qx9LmZ2pW")]),
    ]
    for (name, logs, first) in cases {
        // The fastest of five rounds, each on a store of its own: one round's figure moved by a
        // third from one run to the next on this machine.
        var fastest: Duration?
        for _ in 0..<5 {
            guard let store = try? CaptureStore(logsRequests: logs) else { return }
            if let first {
                _ = store.recordAttributed(method: "POST", url: url, headers: headers + first, sessionHint: nil)
            }
            var length = 0
            let elapsed = ContinuousClock().measure {
                for _ in 0..<count {
                    let recorded = store.recordAttributed(method: "GET", url: url, headers: headers, sessionHint: nil)
                    guard logs else { continue }
                    length += RequestLogLine.line(of: recorded, status: 204, in: store).description.utf8.count
                }
            }
            guard !logs || length > 0 else { return }
            fastest = min(fastest ?? elapsed, elapsed)
        }
        guard let fastest else { return }
        print(name.padded(52) + (fastest / count).microseconds.padded(16, right: true))
    }
}
