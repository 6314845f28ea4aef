import Foundation
import Testing
import TracksnapTraffic

@testable import TracksnapServer

@Suite("The request log hides what the latest requests carried, in a later request's URL")
struct RequestLogRedactionTests {
    /// The line `serve` logs for a request the store records now.
    private static func line(_ store: CaptureStore, url: String, headers: [CapturedRequest.Header] = []) -> String {
        let recorded = store.recordAttributed(method: "GET", url: url, headers: headers, sessionHint: nil)
        return RequestLogLine.line(of: recorded, status: 204, in: store).description
    }

    @Test(
        "a token request 1 sent in its Authorization is hidden where request 2 copies it into a plain path segment or query value, alone or inside one",
        arguments: ["Zq-tokenK", "tok.Ab", "Kx7_tok"])
    func rememberedSecretInPlainPieces(secret: String) throws {
        let store = try CaptureStore(logsRequests: true)
        let first = Self.line(
            store, url: "http://127.0.0.1:8080/v1/login",
            headers: [.init(name: "Authorization", value: "Bearer \(secret)")])
        #expect(!first.contains(secret))
        let copied = Self.line(
            store, url: "http://127.0.0.1:8080/v1/\(secret)/e?ev=\(secret)&screen=x\(secret)&ok=Home")
        #expect(!copied.contains(secret), "\(copied)")
        #expect(copied.components(separatedBy: "redacted").count - 1 == 3, "\(copied)")
        #expect(copied.contains("&ok=Home"))
    }

    @Test(
        "a URL's own secret keys are hidden and its control characters made visible, with or without secrets remembered"
    )
    func ownSecretsAndControlCharacters() throws {
        let store = try CaptureStore(logsRequests: true)
        let plain = Self.line(store, url: "http://127.0.0.1:8080/v1/e?ev=screen_view&access_token=abcdef&x=a\u{1B}b")
        #expect(!plain.contains("abcdef"))
        #expect(plain.contains("access_token=%5Bredacted%5D") || plain.contains("access_token=[redacted]"), "\(plain)")
        #expect(plain.contains("⟨U+001B⟩"), "\(plain)")
        #expect(!plain.contains("\u{1B}"))
    }

    @Test("a URL of plain pieces that holds no remembered secret is logged as it came")
    func plainURLUnchanged() throws {
        let store = try CaptureStore(logsRequests: true)
        _ = Self.line(
            store, url: "http://127.0.0.1:8080/login",
            headers: [.init(name: "Authorization", value: "Bearer Zq-tokenK")])
        let url = "http://127.0.0.1:8080/v1/e?ev=screen_view&screen=Home&n=s-1a2b3c4d"
        #expect(Self.line(store, url: url).contains(" GET \(url) 204"))
    }
}
