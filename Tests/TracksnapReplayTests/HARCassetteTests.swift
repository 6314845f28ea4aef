import Foundation
import Testing
import TracksnapJSON
import TracksnapReplay
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@Suite("HAR files as cassettes", .tags(.process), .leftToMakeTest)
struct HARCassetteTests {
    @Test(
        "each entry's request and response, base64 content as bytes; an entry the browser got no answer for is skipped with a warning"
    )
    func har() throws {
        let text = #"""
            {"log": {"version": "1.2", "creator": {"name": "hand", "version": "1"}, "entries": [
              {"startedDateTime": "2026-11-24T19:00:00.250Z",
               "request": {"method": "POST", "url": "https://api.shop.example/v1/cart", "httpVersion": "HTTP/2",
                           "headers": [{"name": ":authority", "value": "api.shop.example"},
                                       {"name": "content-type", "value": "application/json"}],
                           "postData": {"mimeType": "application/json", "text": "{\"sku\":\"A-1\"}"}},
               "response": {"status": 201, "statusText": "Created", "httpVersion": "HTTP/2",
                            "headers": [{"name": "content-type", "value": "application/json"},
                                        {"name": "set-cookie", "value": "a=1"}, {"name": "set-cookie", "value": "b=2"}],
                            "content": {"size": 15, "mimeType": "application/json", "text": "{\"cart\":\"c-42\"}"},
                            "redirectURL": ""}},
              {"startedDateTime": "2026-11-24T19:00:01Z",
               "request": {"method": "GET", "url": "https://cdn.shop.example/logo.png", "headers": []},
               "response": {"status": 200, "headers": [{"name": "content-type", "value": "image/png"}],
                            "content": {"size": 3, "mimeType": "image/png", "text": "AAEC", "encoding": "base64"}}},
              {"startedDateTime": "2026-11-24T19:00:02Z",
               "request": {"method": "GET", "url": "https://ads.example/pixel", "headers": []},
               "response": {"status": 0, "headers": [], "content": {"size": 0, "mimeType": "x-unknown"}}}
            ]}}
            """#
        let (cassette, warnings) = try Cassette.read(Array(text.utf8), file: "flow.har")
        #expect(cassette.format == .har)
        #expect(
            warnings.map(\.description) == [
                "flow.har:18:27: warning: status 0: the browser got no answer (blocked or aborted); nothing to replay, skipped"
            ])
        #expect(cassette.interactions.count == 2)
        let cart = cassette.interactions[0]
        #expect(cart.request.headers == [.init(name: "content-type", value: "application/json")])
        #expect(cart.request.body == .text(#"{"sku":"A-1"}"#))
        #expect(cart.response.status == 201 && cart.response.body == .text(#"{"cart":"c-42"}"#))
        #expect(cart.response.headers.filter { $0.name == "set-cookie" }.map(\.value) == ["a=1", "b=2"])
        #expect(cart.recordedAt == 1_795_546_800.25)
        #expect(cassette.interactions[1].response.body == .binary([0, 1, 2]))
    }

    @Test(
        "a HAR mitmdump itself wrote in front of a backend on loopback replays through serve byte for byte: JSON, UTF-8 text, bytes, a gzipped answer as decoded, a POST"
    )
    func mitmdump() async throws {
        try await withTemporaryDirectory { directory in
            let har = directory.appending(path: "flow.har").path
            let script = PackagePaths.root.appending(path: "Tests/TracksnapReplayTests/Scripts/mitmdump_har.py")
            try #require(
                FileManager.default.isExecutableFile(atPath: PackagePaths.mitmproxyPython.path),
                "no \(PackagePaths.mitmproxyPython.path): run make mitmproxy-venv")
            // mitmdump makes its CA before it listens: seconds on two busy cores.
            let recording = try await runProcess(
                PackagePaths.mitmproxyPython, [script.path, har, directory.path], timeout: 180)
            try #require(recording.status == 0, "\(recording.stderr)")
            let (cassette, warnings) = try Cassette.read(path: har)
            #expect(cassette.format == .har && warnings.isEmpty, "\(warnings)")
            #expect(cassette.interactions.map(\.response.status) == [200, 200, 200, 200, 201])

            // Nothing listens on port 9: only the HAR can answer.
            let server = try await ServeChild.launch([
                "--upstream", "http://127.0.0.1:9", "--cassette", har, "--record-mode", "never", "--quiet",
            ])
            defer { server.stop() }
            // Each line: the name of the body mitmdump's client got, method, path, status, the request's body.
            for line in recording.stdout.split(separator: "\n") {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                try #require(fields.count == 5, "\(line)")
                let replayed = directory.appending(path: "\(fields[0]).replayed").path
                var curl = [
                    "curl", "--silent", "--show-error", "--max-time", "30", "-o", replayed, "-w", "%{http_code}",
                    "-X", fields[1], server.base + fields[2],
                ]
                if !fields[4].isEmpty { curl += ["-H", "Content-Type: application/json", "--data-binary", fields[4]] }
                let replay = try await runProcess(URL(fileURLWithPath: "/usr/bin/env"), curl)
                #expect(replay.stdout == fields[3], "\(fields[0]): \(replay.stdout) \(replay.stderr)")
                let original = try Data(contentsOf: directory.appending(path: "\(fields[0]).body"))
                #expect(try Data(contentsOf: URL(fileURLWithPath: replayed)) == original, "\(fields[0])")
            }
        }
    }
}
