import Testing
import TracksnapSnapshot

@Suite("An entry's summary reads as a person would write it")
struct EntrySummaryTests {
    private func summary(url: String) throws -> String {
        let text = #"{"requests": [{"method": "POST", "url": \#(url)}]}"#
        return try #require(try Snapshot.parse(Array(text.utf8), file: "s.json").requests.first).summary
    }

    @Test(
        "a server-relative URL (a local origin on any port, recorded as a pattern) reads as the URL, the port a *",
        arguments: [
            (
                #"{"$regex": "http://(127\\.[0-9]+\\.[0-9]+\\.[0-9]+|localhost|\\[::1\\]):[0-9]+\\/v2\\/"}"#,
                "POST http://localhost:*/v2/"
            ),
            (
                #"{"$regex": "https://(127\\.[0-9]+\\.[0-9]+\\.[0-9]+|localhost|\\[::1\\]|collector\\.test):[0-9]+\\/v1\\/batch"}"#,
                "POST https://collector.test:*/v1/batch"
            ),
        ])
    func localOrigin(url: String, expected: String) throws {
        #expect(try summary(url: url) == expected)
    }

    @Test("any other pattern is shown as a pattern")
    func otherPatterns() throws {
        #expect(
            try summary(url: #"{"$regex": "https://t\\.example/v[0-9]+/e"}"#) == "POST /https://t\\.example/v[0-9]+/e/")
        #expect(
            try summary(url: #"{"$regex": "http://(127\\.[0-9]+\\.[0-9]+\\.[0-9]+|localhost|\\[::1\\]):[0-9]+/v.*"}"#)
                .hasPrefix("POST /http://("))
        #expect(try summary(url: #""https://t.example/e""#) == "POST https://t.example/e")
    }
}
