import Testing
import TracksnapJSON
import TracksnapReplay
import TracksnapSnapshot

/// A cassette is committed by anyone with a pull request: what it answers is served to the app
/// on a kept-alive connection. A header that would end the header block where the cassette
/// chose, and start a second answer, is refused where it stands, as is a 1xx, which is no
/// final answer.
@Suite("A cassette cannot split the answer it serves")
struct CassetteSplittingTests {
    static func dvr(status: String = "200", headers: String) -> String {
        """
        {"name": "split", "interactions": [
          {"recorded_at": 1, "request": {"method": "GET", "url": "https://a.example/"},
           "response": {"status": \(status), "url": "https://a.example/",
            "headers": \(headers), "body": ""}}
        ]}
        """
    }

    @Test(
        "a header value holding CR or LF, a header name that is not a token, a 1xx status: each an error at its line and column",
        arguments: [
            (#"{"X-Note": "a\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK"}"#, "200", "split.json:4:27:", "line break"),
            (#"{"X-Note": ["fine", "b\nSet-Cookie: x=1"]}"#, "200", "split.json:4:27:", "line break"),
            (#"{"Bad Name": "x"}"#, "200", "split.json:4:29:", "not an HTTP token"),
            (#"{"X-Nul": "a\u0000b"}"#, "200", "split.json:4:26:", "NUL"),
            (#"{}"#, "101", "split.json:3:27:", "from 200 to 599"),
        ])
    func refused(headers: String, status: String, place: String, says: String) throws {
        let text = Self.dvr(status: status, headers: headers)
        let error = try #require(throws: InputError.self) { try Cassette.read(Array(text.utf8), file: "split.json") }
        #expect(error.description.hasPrefix(place), "\(error)")
        #expect(error.description.contains(says), "\(error)")
    }

    @Test("ordinary headers, repeated ones too, read as before")
    func ordinary() throws {
        let text = Self.dvr(
            headers: #"{"Content-Type": "text/plain", "Set-Cookie": ["a=1", "b=2"], "X-Odd_Name!": "ok"}"#)
        let cassette = try Cassette.read(Array(text.utf8), file: "fine.json").cassette
        #expect(cassette.interactions[0].response.headers.count == 4)
    }
}
