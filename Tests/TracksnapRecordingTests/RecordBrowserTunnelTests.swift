import Foundation
import Testing
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

@Suite("Under the default profile, a tunnel tracksnap did not intercept is neither recorded nor validated")
struct RecordBrowserTunnelTests {
    /// A page's request, and a browser's pre-connect to a host on no noise list (Debian's
    /// Chromium opens one to its search engine): a `CONNECT` recorded as relayed, untouched.
    static let page = get("https://shop.example/pixel?ev=page_view", id: 1)
    static let tunnel = CapturedRequest(
        id: "2", method: "CONNECT", url: "https://start.duckduckgo.com:443", headers: [])

    @Test("recording leaves the relayed CONNECT out")
    func recordingLeavesItOut() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "s.json").path
            let text = try record([Self.page, Self.tunnel], to: path)
            #expect(!text.contains("duckduckgo"), "\(text)")
            #expect(text.contains("page_view"))
        }
    }

    @Test("a snapshot recorded without it validates a capture with it: no unexpected request")
    func validationLeavesItOut() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "s.json").path
            try record([Self.page], to: path)
            let result = try validateFile(path, [Self.tunnel, Self.page])
            #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
        }
    }
}
