import Foundation
import Testing
import TracksnapTestSupport

/// A real browser — Debian's Chromium, headless — loading a shop page whose tags send to the
/// vendors' own HTTPS hosts, through `tracksnap serve --intercept analytics --answer`. The CA is
/// trusted the way a tester would for one browser profile: by its SPKI hash.
@Suite("HTTPS interception end to end: headless Chromium", .tags(.process, .browser), .leftToMakeTest)
struct BrowserInterceptionTests {
    static let chromium = "/usr/bin/chromium"

    @Test(
        "an image pixel, sendBeacon and a preflighted fetch to Google Analytics and Segment are captured and validate")
    func shopPage() async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.chromium) else {
            Issue.record("\(Self.chromium) is missing: run `make test`, which installs Debian's chromium for this test")
            return
        }
        try await withTemporaryDirectory { directory in
            let caDirectory = directory.appending(path: "ca").path
            let ca = try await tracksnap("ca", "--ca-dir", caDirectory)
            #expect(ca.status == 0, "\(ca.stderr)")
            let spki = try #require(
                ca.stdout.split(separator: "\n").first { $0.hasPrefix("SPKI:") }?.split(separator: " ").last)
            let server = try await ServeChild.launch(["--intercept", "analytics", "--answer", "--ca-dir", caDirectory])
            defer { server.stop() }
            let session = try await server.call("POST", "sessions", as: ServeChild.Session.self).id
            let pages = try await PageServer.launch(serving: PackagePaths.fixtures.appending(path: "browser"))
            defer { pages.stop() }

            // The page is on loopback, which Chromium reaches directly; the tags' requests go
            // through tracksnap, and the browser's own background traffic (updates, accounts) to
            // a closed port, so that nothing tries to leave the machine. --virtual-time-budget
            // lets the page's requests finish before the DOM is printed.
            let pac = """
                function FindProxyForURL(url, host) {
                  if (host == "127.0.0.1") return "DIRECT";
                  if (dnsDomainIs(host, "google-analytics.com") || dnsDomainIs(host, "segment.io")) return "PROXY \(server.base.dropFirst("http://".count))";
                  return "PROXY 127.0.0.1:9";
                }
                """
            let browsed = try await runProcess(
                URL(fileURLWithPath: Self.chromium),
                [
                    "--headless=new", "--no-sandbox", "--disable-gpu",
                    "--user-data-dir=\(directory.appending(path: "profile").path)",
                    "--proxy-pac-url=data:application/x-ns-proxy-autoconfig;base64,\(Data(pac.utf8).base64EncodedString())",
                    "--ignore-certificate-errors-spki-list=\(spki)", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-default-apps",
                    "--disable-extensions", "--virtual-time-budget=15000", "--dump-dom", "\(pages.base)/shop.html",
                ], timeout: Bounds.process)
            #expect(browsed.stdout.contains("<title>sent</title>"), "\(browsed.stdout)\n\(browsed.stderr.suffix(2000))")

            let captured = try await server.call("GET", "sessions/\(session)/requests?count=4&timeout=30")
            let lines = try #require(try JSONSerialization.jsonObject(with: captured) as? [[String: Any]])
            let urls = lines.compactMap { $0["url"] as? String }
            #expect(urls.count == 4, "\(urls)")
            #expect(urls.filter { $0.hasPrefix("https://www.google-analytics.com/g/collect?") }.count == 2, "\(urls)")
            #expect(urls.filter { $0 == "https://api.segment.io/v1/t" }.count == 2, "\(urls)")
            // The preflight was answered (the page read the fetch's answer), not recorded.
            #expect(!lines.contains { $0["method"] as? String == "OPTIONS" })

            for vendor in ["ga4", "segment"] {
                let snapshot = PackagePaths.fixtures.appending(path: "browser/\(vendor).json").path
                let body = try JSONSerialization.data(withJSONObject: [
                    "snapshot": snapshot, "validator": vendor, "format": "text",
                ])
                let report = try await server.call("POST", "sessions/\(session)/validate", body: body)
                let text = String(decoding: report, as: UTF8.self)
                #expect(text.contains("1 snapshot: 1 passed"), "\(text)")
            }
        }
    }
}

extension BrowserInterceptionTests {
    /// The HTTPS guide's recipe (Documentation/HTTPS.md) for headless Chromium in CI, as root: the
    /// CA's SPKI from `tracksnap ca` (and the same from the certificate with openssl), then
    /// Chromium with nothing but the recipe's flags, so that it sends its own background requests
    /// (updates, the time, the account list) through tracksnap beside the page's.
    @Test(
        "headless Chromium through the default profile: a snapshot recorded from one run holds only the page's requests and passes on the next"
    )
    func defaultProfileLeavesOutTheBrowser() async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.chromium) else {
            Issue.record("\(Self.chromium) is missing: run `make test`, which installs Debian's chromium for this test")
            return
        }
        try await withTemporaryDirectory { directory in
            let caDirectory = directory.appending(path: "ca").path
            let executable = try PackagePaths.executable.get().path
            let recipe = try await runProcess(
                URL(fileURLWithPath: "/bin/sh"),
                [
                    "-c",
                    """
                    \(executable) ca --ca-dir "$1" | awk '/^SPKI:/ {print $2}'
                    openssl x509 -in "$1/ca-cert.pem" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | openssl base64
                    """,
                    "sh", caDirectory,
                ])
            let spkis = recipe.stdout.split(separator: "\n").map(String.init)
            #expect(spkis.count == 2 && spkis[0] == spkis[1] && spkis[0].count == 44, "\(recipe)")
            let spki = try #require(spkis.first)
            let pages = try await PageServer.launch(serving: PackagePaths.fixtures.appending(path: "browser"))
            defer { pages.stop() }

            /// One run of the page in a fresh browser profile, through a fresh server: its capture.
            func run(_ name: String) async throws -> String {
                let server = try await ServeChild.launch([
                    "--intercept", "analytics", "--answer", "--ca-dir", caDirectory,
                ])
                defer { server.stop() }
                let session = try await server.call("POST", "sessions", as: ServeChild.Session.self).id
                let browsed = try await runProcess(
                    URL(fileURLWithPath: Self.chromium),
                    [
                        "--headless=new", "--no-sandbox", "--proxy-server=\(server.base)",
                        "--ignore-certificate-errors-spki-list=\(spki)",
                        "--user-data-dir=\(directory.appending(path: "profile-\(name)").path)",
                        "--virtual-time-budget=15000", "--dump-dom", "\(pages.base)/own.html",
                    ], timeout: Bounds.process)
                #expect(
                    browsed.stdout.contains("<title>sent</title>"), "\(browsed.stdout)\n\(browsed.stderr.suffix(2000))")
                // The page's two Google Analytics hits are its first and last requests.
                _ = try await server.call("GET", "sessions/\(session)/requests?events=2&timeout=30")
                let capture = directory.appending(path: "\(name).ndjson")
                try await server.call("GET", "sessions/\(session)/requests?format=ndjson").write(to: capture)
                return capture.path
            }

            let first = try await run("first")
            let hosts = try String(contentsOfFile: first, encoding: .utf8).split(separator: "\n").compactMap { line in
                ((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["url"] as? String)
                    .flatMap { URL(string: $0)?.host }
            }
            #expect(
                hosts.contains { !["www.google-analytics.com", "shop.example"].contains($0) },
                "Chromium sent nothing of its own, so this run shows nothing: \(hosts)")
            let snapshot = directory.appending(path: "own.json").path
            let recorded = try await tracksnap("record", snapshot, "--capture", first)
            #expect(recorded.status == 0, "\(recorded.stderr)")
            #expect(recorded.stdout.hasPrefix("recorded \(snapshot): 3 requests"), "\(recorded.stdout)")
            let urls = try String(contentsOfFile: snapshot, encoding: .utf8).split(separator: "\n")
                .filter { $0.contains("\"url\": ") }.map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(
                urls == [
                    #""url": "https://www.google-analytics.com/g/collect""#, #""url": "http://shop.example/collect""#,
                    #""url": "https://www.google-analytics.com/g/collect""#,
                ], "\(urls)")

            let second = try await run("second")
            let validated = try await tracksnap("validate", snapshot, "--capture", second)
            #expect(validated.status == 0, "\(validated.stdout)\n\(validated.stderr)")
        }
    }
}

/// Python's http.server on 127.0.0.1, serving a folder: the shop page's own origin.
struct PageServer {
    let child: ChildProcess
    /// `http://127.0.0.1:PORT`.
    let base: String

    static func launch(serving folder: URL) async throws -> PageServer {
        let script = """
            import functools, http.server, sys
            handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """
        let child = try await ChildProcess.launch(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, folder.path])
        guard let port = Int(child.firstLine) else {
            child.stop()
            throw ServeFailure(description: "the page server printed \(child.firstLine.debugDescription)")
        }
        return PageServer(child: child, base: "http://127.0.0.1:\(port)")
    }

    func stop() {
        child.stop()
    }
}
