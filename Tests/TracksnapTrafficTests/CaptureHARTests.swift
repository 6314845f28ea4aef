import Foundation
import Testing

@testable import TracksnapTraffic

@Suite("Capture files: HAR 1.2")
struct CaptureHARTests {
    @Test(
        "reads every entry of each browser's and proxy's export",
        arguments: [
            ("chrome.har", ["POST", "POST", "GET"]),
            ("firefox.har", ["POST", "POST", "GET"]),
            ("mitmproxy.har", ["POST", "POST", "GET"]),
            ("charles.har", ["POST", "POST", "POST"]),
        ])
    func readsEntries(name: String, methods: [String]) throws {
        let requests = try CaptureFixtures.read(name)
        #expect(requests.map(\.method) == methods)
        #expect(requests.map(\.id) == methods.indices.map(String.init))
        #expect(requests.allSatisfy { $0.session == nil && $0.time != nil })
    }

    @Test("Chrome: pseudo-headers dropped, the others kept in order with their case")
    func chromeHeaders() throws {
        let gtag = try #require(try CaptureFixtures.read("chrome.har").first)
        #expect(!gtag.headers.contains { $0.name.hasPrefix(":") })
        #expect(
            gtag.headers.map(\.name) == [
                "accept", "accept-encoding", "accept-language", "content-length", "content-type",
                "origin", "referer", "sec-fetch-mode", "user-agent",
            ])
        #expect(gtag.header("Content-Type") == "text/plain;charset=UTF-8")
        #expect(gtag.time == "2026-11-21T08:00:01.204Z")
    }

    @Test("Chrome: the gtag body keeps its newline-separated events")
    func chromeGtagBody() throws {
        let gtag = try #require(try CaptureFixtures.read("chrome.har").first)
        let lines = try #require(gtag.bodyText).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("en=page_view&") == true)
        #expect(lines.last?.hasPrefix("en=begin_checkout&") == true)
        #expect(gtag.host == "region1.google-analytics.com")
        #expect(gtag.path == "/g/collect")
        // Two lines are a batch for the decoder, not one form.
        #expect(gtag.formItems.isEmpty)
        let dt = gtag.queryItems.first { $0.name == "dt" }?.value
        #expect(dt == "Checkout – Shop")
    }

    @Test("Chrome: a Segment batch is a JSON text body")
    func chromeSegment() throws {
        let segment = try CaptureFixtures.read("chrome.har")[1]
        #expect(segment.urlWithoutQuery == "https://api.segment.io/v1/batch")
        #expect(segment.mediaType == "application/json")
        let json = try JSONSerialization.jsonObject(with: Data(try #require(segment.bodyText).utf8))
        let batch = (json as? [String: Any])?["batch"] as? [[String: Any]]
        #expect(batch?.first?["event"] as? String == "Order Completed")
        #expect(segment.formItems.isEmpty)
    }

    @Test("a GET has no body, and its URL keeps the query")
    func getWithoutBody() throws {
        let get = try CaptureFixtures.read("chrome.har")[2]
        #expect(get.body == nil)
        #expect(get.bodyText == nil)
        #expect(get.url.contains("?ev=screen_view&"))
        #expect(get.urlWithoutQuery == "https://t.example.com/p.gif")
    }

    @Test("Firefox: text wins over params, and a one-line text/plain beacon is a form")
    func firefoxBodies() throws {
        let requests = try CaptureFixtures.read("firefox.har")
        #expect(requests[0].headers.first?.name == "Host")
        #expect(requests[0].time == "2026-11-21T09:00:00.512+01:00")
        #expect(requests[0].formItems.map(\.name) == ["en", "_et", "ep.page_type", "epn.items_in_cart"])
        let form = requests[1]
        #expect(
            form.body
                == .text(
                    "v=1&tid=UA-12345-1&cid=555&t=event&ec=checkout&ea=buy+now&el=50%25+off&cd1=a%2Bb&z=1763712000604"))
        let items = Dictionary(form.formItems.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        #expect(items["ea"] == "buy now")
        #expect(items["el"] == "50% off")
        #expect(items["cd1"] == "a+b")
    }

    @Test("Firefox: repeated query parameters stay in order; empty and bare names are kept")
    func firefoxRepeated() throws {
        let get = try CaptureFixtures.read("firefox.har")[2]
        #expect(get.queryItems.map(\.name) == ["ev", "item", "item", "item", "price", "empty", "flag"])
        #expect(get.queryItems.filter { $0.name == "item" }.map(\.value) == ["sku-1", "sku-2", "sku-3"])
        #expect(get.queryItems.last { $0.name == "price" }?.value == "€12")
        #expect(get.queryItems.suffix(2).map(\.value) == ["", ""])
    }

    @Test("mitmproxy: query items come before form items in parameters")
    func mitmproxyParameters() throws {
        let requests = try CaptureFixtures.read("mitmproxy.har")
        #expect(requests[0].header("authorization") == "Basic d2tfZGVtbzo=")
        let mixpanel = requests[1]
        #expect(mixpanel.parameters.map(\.name) == ["ip", "verbose", "data"])
        let data = try #require(mixpanel.formItems.first?.value)
        let decoded = try #require(Data(base64Encoded: data)).map { $0 }
        #expect(String(decoding: decoded, as: UTF8.self).contains(#""event":"Signed Up""#))
        let get = requests[2]
        #expect(get.urlWithoutQuery == "http://collector.example.test:8080/i")
        #expect(get.host == "collector.example.test")
        #expect(get.queryItems.first { $0.name == "url" }?.value == "https://shop.example.com/")
    }

    @Test("Charles: params without text become a form-encoded body")
    func paramsOnly() throws {
        let form = try CaptureFixtures.read("charles.har")[0]
        #expect(form.body == .text("v=1&t=event&ea=buy+now+%26+save&el=50%25+off&cd1=a%2Bb&note=caf%C3%A9&flag="))
        #expect(form.formItems.map(\.name) == ["v", "t", "ea", "el", "cd1", "note", "flag"])
        #expect(form.formItems.map(\.value) == ["1", "event", "buy now & save", "50% off", "a+b", "café", ""])
    }

    @Test("Charles: a base64 body stays base64 when binary, and becomes text when UTF-8")
    func base64Bodies() throws {
        let requests = try CaptureFixtures.read("charles.har")
        #expect(requests[1].body == .base64("CgVoZWxsbxCWAQ=="))
        #expect(requests[1].bodyBytes == [0x0A, 0x05, 0x68, 0x65, 0x6C, 0x6C, 0x6F, 0x10, 0x96, 0x01])
        #expect(requests[1].bodyText == nil)
        #expect(requests[2].body == .text(#"{"event":"app_open"}"#))
    }

    @Test("a postData with neither text nor params is no body")
    func emptyPostData() throws {
        let text =
            #"{"log":{"entries":[{"request":{"method":"POST","url":"https://x.test/","postData":{"mimeType":"text/plain","params":[]}}}]}}"#
        let requests = try CaptureFile.read(data: Data(text.utf8), file: "p.har")
        #expect(requests.first?.body == nil)
        #expect(requests.first?.headers == [])
        #expect(requests.first?.time == nil)
    }
}
