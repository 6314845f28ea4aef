import Foundation
import Testing
import TracksnapReplay
import TracksnapTestSupport

/// `tracksnap serve --cassette` with answers that came compressed: what each client reads is the
/// JSON the backend meant, whether the cassette stored the answer decoded or still encoded.
@Suite("tracksnap serve replays a compressed answer as it was recorded", .tags(.process), .leftToMakeTest)
struct ServeCompressedReplayTests {
    /// Records with vcrpy from a backend that compresses, and asks again with `requests`.
    static let script = PackagePaths.root.appending(path: "Tests/TracksnapReplayTests/Scripts/vcrpy_compressed.py")

    /// What curl prints for a URL, through a proxy or not, asking for compression or not: the
    /// answer's headers (lower-cased names) and body.
    func curl(_ url: String, proxy: String?, compressed: Bool) async throws -> (headers: [String: String], body: String)
    {
        var arguments = ["curl", "--silent", "--show-error", "--max-time", "30", "--dump-header", "-"]
        if let proxy { arguments += ["-x", proxy] }
        if compressed { arguments.append("--compressed") }
        let result = try await runProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments + [url])
        let parts = result.stdout.components(separatedBy: "\r\n\r\n")
        var headers: [String: String] = [:]
        for line in (parts.first ?? "").split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return (headers, parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    /// The `coding` member of a JSON answer, or nil when it is not JSON.
    func coding(_ body: String) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["coding"] as? String
    }

    @Test(
        "a cassette vcrpy records from a backend answering gzip, deflate and brotli: requests, and curl with and without --compressed, read the JSON"
    )
    func vcrpy() async throws {
        try await withTemporaryDirectory { directory in
            let cassette = directory.appending(path: "compressed.yaml").path
            let recorded = try await runProcess(PackagePaths.python, [Self.script.path, "record", cassette])
            try #require(recorded.status == 0, "\(recorded.stderr)")
            let base = recorded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            // vcrpy stores what requests read decoded (its Content-Encoding kept), and what urllib
            // read as it came: the compressed bytes, as !!binary.
            let answers = try Cassette.read(path: cassette).cassette.interactions.map(\.response)
            #expect(answers.map(\.isBodyEncoded) == [false, true, false, true, false, true])
            #expect(answers.allSatisfy { $0.contentEncoding != nil })

            // vcrpy's rules play each interaction once: the clients below ask each URL again.
            let server = try await ServeChild.launch([
                "--cassette", cassette, "--record-mode", "none", "--allow-repeats", "--quiet",
            ])
            defer { server.stop() }
            let codings = ["gzip", "deflate", "br"]
            let urls = codings.flatMap { ["\(base)/\($0)", "\(base)/\($0)?client=urllib"] }
            let replayed = try await runProcess(PackagePaths.python, [Self.script.path, "replay", server.base] + urls)
            #expect(replayed.status == 0, "\(replayed.stderr)")
            let read = replayed.stdout.split(separator: "\n").map {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["json"] as? [String: Any]
            }
            #expect(read.map { $0?["coding"] as? String } == codings.flatMap { [$0, $0] }, "\(replayed.stdout)")

            for url in urls {
                let name = url.replacingOccurrences(of: base, with: "")
                let expected = String(name.dropFirst().prefix { $0 != "?" })
                let compressed = try await curl(url, proxy: server.base, compressed: true)
                #expect(coding(compressed.body) == expected, "curl --compressed \(name): \(compressed)")
                let plain = try await curl(url, proxy: server.base, compressed: false)
                if expected == "br" && url.hasSuffix("urllib") {
                    // tracksnap has no brotli decoder: what it cannot undo is served as recorded,
                    // and says what it is.
                    #expect(plain.headers["content-encoding"] == "br", "curl \(name): \(plain.headers)")
                } else {
                    #expect(coding(plain.body) == expected, "curl \(name): \(plain)")
                    #expect(plain.headers["content-encoding"] == nil, "curl \(name): \(plain.headers)")
                    #expect(plain.headers["content-length"] == String(plain.body.utf8.count))
                }
            }
        }
    }

    @Test(
        "a Ruby VCR cassette with a gzip'd base64_string answer: requests and curl read the JSON, compressed on the wire when they accept it"
    )
    func rubyGzip() async throws {
        try await withTemporaryDirectory { directory in
            let cassette = directory.appending(path: "products.yml").path
            try Data(Self.rubyCassette.utf8).write(to: URL(fileURLWithPath: cassette))
            let server = try await ServeChild.launch([
                "--upstream", "http://127.0.0.1:9", "--cassette", cassette, "--record-mode", "none",
                "--allow-repeats", "--quiet",
            ])
            defer { server.stop() }
            let url = "\(server.base)/v1/products"
            let replayed = try await runProcess(PackagePaths.python, [Self.script.path, "replay", "-", url])
            #expect(replayed.status == 0 && replayed.stdout.contains(#""coding": "gzip""#), "\(replayed)")
            let compressed = try await curl(url, proxy: nil, compressed: true)
            #expect(coding(compressed.body) == "gzip", "\(compressed)")
            #expect(compressed.headers["content-encoding"] == "gzip")
            let plain = try await curl(url, proxy: nil, compressed: false)
            #expect(coding(plain.body) == "gzip" && plain.headers["content-encoding"] == nil, "\(plain)")
        }
    }

    /// Ruby VCR's own shape for an answer it kept compressed: the gzip bytes in base64, broken
    /// every 60 characters as Ruby's `Base64.encode64` writes them.
    static let rubyCassette = """
        ---
        http_interactions:
        - request:
            method: get
            uri: http://127.0.0.1:9/v1/products
            body:
              encoding: US-ASCII
              string: ''
            headers:
              Accept-Encoding:
              - gzip;q=1.0,deflate;q=0.6,identity;q=0.3
          response:
            status:
              code: 200
              message: OK
            headers:
              Content-Type:
              - application/json
              Content-Encoding:
              - gzip
              Content-Length:
              - '64'
            body:
              encoding: ASCII-8BIT
              base64_string: |
                H4sIAAAAAAACA6tWSs5PycxLV7JSSq/KLFDSUSooyk8pTS4pVrKKrlYqzi4F
                yjjqGirVxtYCAMxnO1UsAAAA
            http_version:
          recorded_at: Tue, 24 Nov 2026 19:00:00 GMT
        recorded_with: VCR 6.2.0
        """
}
