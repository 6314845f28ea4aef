import Foundation
import Testing

@testable import TracksnapTraffic

@Suite("Captured requests: URL, query, form and body views")
struct CaptureViewsTests {
    private func get(_ url: String) -> CapturedRequest {
        CapturedRequest(id: "1", method: "GET", url: url)
    }

    private func post(_ body: CapturedRequest.Body?, contentType: String?) -> CapturedRequest {
        CapturedRequest(
            id: "1", method: "POST", url: "https://x.test/e?q=1",
            headers: contentType.map { [.init(name: "Content-Type", value: $0)] } ?? [], body: body)
    }

    @Test(
        "the URL without its query: scheme and host lowercased, user info and fragment dropped",
        arguments: [
            ("https://api.segment.io/v1/batch", "https://api.segment.io/v1/batch"),
            ("HTTPS://user:pw@API.Example.com:8443/V1/t?a=1#top", "https://api.example.com:8443/V1/t"),
            ("https://example.com?x=1", "https://example.com/"),
            ("https://example.com#frag", "https://example.com/"),
            ("http://[::1]:8080/p?x", "http://[::1]:8080/p"),
            ("https://t.example/a%20b/c?d", "https://t.example/a%20b/c"),
            ("https://t.example/p?next=https://other.test/x?y=1", "https://t.example/p"),
            ("/relative/path?x=1", "/relative/path"),
            ("", ""),
        ])
    func urlWithoutQuery(url: String, expected: String) {
        #expect(get(url).urlWithoutQuery == expected)
    }

    @Test(
        "host, path and query",
        arguments: [
            ("https://user@API.segment.io:443/v1/batch?a=1#f", "api.segment.io", "/v1/batch", String?.some("a=1")),
            ("https://example.com", "example.com", "/", nil),
            ("https://example.com?", "example.com", "/", ""),
            ("http://[2001:db8::1]/x", "[2001:db8::1]", "/x", nil),
            ("https://example.com:/x", "example.com", "/x", nil),
            ("not a url", "", "not a url", nil),
            ("mailto:someone@example.com", "", "mailto:someone@example.com", nil),
        ])
    func hostPathQuery(url: String, host: String, path: String, query: String?) {
        let request = get(url)
        #expect(request.host == host)
        #expect(request.path == path)
        #expect(request.query == query)
    }

    @Test("a port is kept only when it has digits")
    func ports() {
        #expect(get("https://example.com:/x").urlWithoutQuery == "https://example.com/x")
        #expect(get("http://localhost:9090").urlWithoutQuery == "http://localhost:9090/")
        #expect(get("http://localhost:9090").host == "localhost")
    }

    @Test(
        "percent-decoding: plus is a space, bad escapes and bad UTF-8 are kept as written",
        arguments: [
            ("a=%2B", "+"),
            ("a=1+2", "1 2"),
            ("a=%20%2520", " %20"),
            ("a=50%zz", "50%zz"),
            ("a=%", "%"),
            ("a=%4", "%4"),
            ("a=%4g", "%4g"),
            ("a=caf%C3%A9", "café"),
            ("a=caf%c3%a9", "café"),
            ("a=%E2%82%AC", "€"),
            ("a=%F0%9F%98%80", "😀"),
            ("a=café", "café"),
            ("a=%E9t%E9+1", "%E9t%E9+1"),
            ("a=%C3", "%C3"),
            ("a=%00", "\u{0}"),
            ("a=b=c", "b=c"),
            ("a=%26%3D", "&="),
        ])
    func percentDecoding(query: String, value: String) throws {
        let items = get("https://x.test/p?" + query).queryItems
        #expect(items.count == 1)
        let item = try #require(items.first)
        #expect(item.name == "a")
        #expect(item.value == value)
    }

    @Test("names are decoded like values, empty pieces skipped, repeats kept in order")
    func queryPieces() {
        let items = get("https://x.test/p?&ep.first%20name=Ann&&tag=1&flag&tag=2&=v&tag=3&").queryItems
        #expect(items.map(\.name) == ["ep.first name", "tag", "flag", "tag", "", "tag"])
        #expect(items.map(\.value) == ["Ann", "1", "", "2", "v", "3"])
        #expect(get("https://x.test/p").queryItems.isEmpty)
        #expect(get("https://x.test/p?#a=1").queryItems.isEmpty)
    }

    @Test(
        "form items from a form content type, or a form-looking body without one or in text/plain",
        arguments: [
            ("application/x-www-form-urlencoded", "v=1&t=event&ea=buy+now", ["v", "t", "ea"]),
            ("Application/X-WWW-Form-URLEncoded; charset=UTF-8", "a=1&a=2", ["a", "a"]),
            ("application/x-www-form-urlencoded", "not a form but declared", ["not a form but declared"]),
            (nil, "v=1&tid=UA-1&t=pageview", ["v", "tid", "t"]),
            ("text/plain;charset=UTF-8", "en=page_view&_et=3", ["en", "_et"]),
            ("text/plain;charset=UTF-8", "en=page_view&_et=3\nen=scroll&_et=9", []),
            (nil, #"{"a":"b=c&d=e"}"#, []),
            (nil, "hello world", []),
            (nil, "a=1&&b=2", []),
            (nil, "a=1&b", []),
            (nil, "=1", []),
            ("application/json", "a=1&b=2", []),
            ("text/plain", "", []),
        ] as [(String?, String, [String])])
    func formItems(contentType: String?, body: String, names: [String]) {
        let request = post(.text(body), contentType: contentType)
        #expect(request.formItems.map(\.name) == names)
    }

    @Test("parameters are the query's items, then the form's")
    func parameters() {
        let request = post(.text("b=2&a=3"), contentType: "application/x-www-form-urlencoded")
        #expect(request.parameters.map(\.name) == ["q", "b", "a"])
        #expect(request.parameters.map(\.value) == ["1", "2", "3"])
        #expect(post(nil, contentType: "application/x-www-form-urlencoded").parameters.map(\.name) == ["q"])
    }

    @Test("a base64 form body is read through its decoded text")
    func base64Form() {
        let encoded = Data("a=1&b=x%2By".utf8).base64EncodedString()
        let request = post(.base64(encoded), contentType: "application/x-www-form-urlencoded")
        #expect(request.formItems.map(\.value) == ["1", "x+y"])
    }

    @Test(
        "body text and bytes",
        arguments: [
            (CapturedRequest.Body?.some(.text("héllo")), String?.some("héllo"), [UInt8]?.some(Array("héllo".utf8))),
            (.base64("aGk="), "hi", [0x68, 0x69]),
            (.base64("//79"), nil, [0xFF, 0xFE, 0xFD]),
            (.base64("not base64!"), nil, nil),
            (.text(""), "", []),
            (nil, nil, nil),
        ])
    func bodyViews(body: CapturedRequest.Body?, text: String?, bytes: [UInt8]?) {
        let request = post(body, contentType: nil)
        #expect(request.bodyText == text)
        #expect(request.bodyBytes == bytes)
    }

    @Test(
        "the media type is lowercased and stripped of parameters",
        arguments: [
            (String?.some("Application/JSON; charset=utf-8"), String?.some("application/json")),
            ("  text/plain  ", "text/plain"),
            ("", nil),
            (nil, nil),
        ])
    func mediaType(header: String?, expected: String?) {
        #expect(post(nil, contentType: header).mediaType == expected)
    }

    @Test(
        "form encoding writes what form decoding reads back",
        arguments: [
            "plain", "buy now & save", "50% off", "a+b", "café 😀", "=&?#/", "",
        ])
    func formEncodingRoundTrip(value: String) {
        let encoded = FormEncoding.encode(value)
        #expect(!encoded.contains(" "))
        #expect(FormEncoding.decode(Substring(encoded)) == value)
    }
}
