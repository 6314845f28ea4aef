import Foundation
import Testing

@testable import TracksnapTraffic

@Suite("Capture files: tracksnap NDJSON")
struct CaptureNDJSONTests {
    @Test("reads one request per line, skipping blank lines")
    func readsFixture() throws {
        let requests = try CaptureFixtures.read("capture.ndjson")
        #expect(requests.count == 4)
        #expect(requests.map(\.method) == ["POST", "GET", "POST", "POST"])
        #expect(requests.map(\.session) == ["s1", "s1", nil, "s2"])
        let segment = requests[0]
        #expect(segment.time == "2026-11-21T08:00:00.123Z")
        #expect(
            segment.headers == [
                .init(name: "Content-Type", value: "application/json"),
                .init(name: "Authorization", value: "Basic d2tfZGVtbzo="),
            ])
        #expect(segment.bodyText?.hasPrefix(#"{"batch":[{"type":"track""#) == true)
    }

    @Test("an id defaults to the 1-based line number, and may be written as an integer")
    func ids() throws {
        let requests = try CaptureFixtures.read("capture.ndjson")
        #expect(requests.map(\.id) == ["1", "3", "7", "gtag-1"])
    }

    @Test("bodyEncoding base64 gives binary bytes; text bodies keep their newlines")
    func bodies() throws {
        let requests = try CaptureFixtures.read("capture.ndjson")
        #expect(requests[1].body == nil)
        #expect(requests[2].body == .base64("CgVoZWxsbxCWAQ=="))
        #expect(requests[2].bodyBytes?.count == 10)
        #expect(requests[3].bodyText?.split(separator: "\n").count == 2)
    }

    @Test("CRLF line ends, a BOM and surrounding spaces are accepted")
    func lineEnds() throws {
        let text =
            "\u{FEFF}{\"method\":\"GET\",\"url\":\"https://x.test/a\"}\r\n\r\n  {\"method\":\"GET\",\"url\":\"https://x.test/b\"}  \r\n"
        let requests = try CaptureFile.read(data: Data(text.utf8), file: "crlf.ndjson")
        #expect(requests.map(\.url) == ["https://x.test/a", "https://x.test/b"])
        #expect(requests.map(\.id) == ["1", "3"])
    }

    @Test("writes one line with sorted members and unescaped slashes")
    func writesLine() {
        let request = CapturedRequest(
            id: "1", time: "2026-11-21T08:00:00.123Z", method: "POST", url: "https://api.segment.io/v1/batch",
            headers: [.init(name: "Content-Type", value: "application/json")],
            body: .text("{\"batch\":[]}\n"), session: "s1")
        let line = CaptureFile.ndjsonLine(request)
        #expect(!line.contains("\n"))
        #expect(line.contains("https://api.segment.io/v1/batch"))
        let keys = [
            "\"body\"", "\"bodyEncoding\"", "\"headers\"", "\"id\"", "\"method\"", "\"session\"", "\"time\"", "\"url\"",
        ]
        let offsets = keys.compactMap { line.range(of: $0)?.lowerBound }
        #expect(offsets.count == keys.count)
        #expect(offsets == offsets.sorted())
        #expect(line.contains(#""bodyEncoding":"text""#))
    }

    @Test("omits what a request does not have")
    func writesMinimalLine() {
        let line = CaptureFile.ndjsonLine(CapturedRequest(id: "9", method: "GET", url: "https://x.test/?a=1"))
        #expect(!line.contains("body"))
        #expect(!line.contains("time"))
        #expect(!line.contains("session"))
    }

    @Test(
        "what it writes, it reads back unchanged",
        arguments: [
            CapturedRequest(id: "1", method: "GET", url: "https://x.test/p?a=1&b=%2B"),
            CapturedRequest(
                id: "two", time: "2026-11-21T08:00:00Z", method: "POST", url: "https://x.test/e",
                headers: [
                    .init(name: "X-A", value: "1"), .init(name: "x-a", value: "2"),
                    .init(name: "Cookie", value: "k=v; q=\"w\""),
                ],
                body: .text("line 1\nline 2\t\"quoted\" \\ café 😀 \u{2028}"), session: "s"),
            CapturedRequest(id: "3", method: "PUT", url: "https://x.test/b", body: .base64("CgVoZWxsbxCWAQ==")),
            CapturedRequest(id: "4", method: "POST", url: "https://x.test/empty", body: .text("")),
        ])
    func roundTrip(request: CapturedRequest) throws {
        let text = CaptureFile.ndjson([request, request])
        #expect(text.split(separator: "\n").count == 2)
        let back = try CaptureFile.read(data: Data(text.utf8), file: "round.ndjson")
        #expect(back == [request, request])
    }

    @Test(
        "the fixtures survive a write and a read",
        arguments: ["chrome.har", "firefox.har", "mitmproxy.har", "charles.har", "capture.ndjson"])
    func fixtureRoundTrip(name: String) throws {
        let requests = try CaptureFixtures.read(name)
        let back = try CaptureFile.read(data: Data(CaptureFile.ndjson(requests).utf8), file: name + ".ndjson")
        #expect(back == requests)
    }
}
