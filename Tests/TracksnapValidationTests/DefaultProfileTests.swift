import Foundation
import Testing
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

@Suite("The default profile leaves out what browsers send for themselves, and nothing else")
struct DefaultProfileTests {
    /// What headless Chromium 156 and Firefox ESR 153 sent by themselves through `tracksnap serve`
    /// within a few minutes of loading one page, intercepted (the request inside) or not (the
    /// `CONNECT`, or a plain http:// request); and two hosts the browsers' documentation names
    /// that these runs did not reach (Chromium's autofill, Firefox's tracking protection lists).
    static let browsers: [(String, String)] = [
        ("POST", "https://update.googleapis.com/service/update2/json?cup2key=ML-DSA-44-16:x&cup2hreq=5a71"),
        ("POST", "http://update.googleapis.com/service/update2/json?cup2key=ML-DSA-44-16:x"),
        ("GET", "https://update.googleapis.com/service/update2/crx"),
        ("GET", "http://clients2.google.com/time/1/current?cup2key=ML-DSA-44-10:x&cup2hreq=e3b0"),
        ("GET", "https://redirector.gvt1.com/edgedl/chrome/dict/en-us-10-2.bdic"),
        ("POST", "https://accounts.google.com/ListAccounts?gpsia=1&source=ChromiumBrowser&json=standard"),
        ("CONNECT", "https://accounts.google.com:443"),
        ("POST", "https://optimizationguide-pa.googleapis.com/v1:GetModels?key=AIza"),
        ("GET", "https://safebrowsing.googleapis.com/v4/threatListUpdates:fetch?$req=x"),
        ("GET", "https://safebrowsing.googleapis.com/v5/hashLists:batchGet"),
        ("CONNECT", "https://content-autofill.googleapis.com:443"),
        ("GET", "http://detectportal.firefox.com/success.txt?ipv4"),
        ("GET", "https://firefox.settings.services.mozilla.com/v1/buckets/monitor/collections/changes/changeset"),
        ("GET", "https://firefox-settings-attachments.cdn.mozilla.net/main-workspace/newtab-wallpapers-v2/x"),
        ("CONNECT", "https://firefox-settings.mozilla-backup.org:443"),
        ("GET", "https://push.services.mozilla.com/"),
        ("POST", "https://incoming.telemetry.mozilla.org/submit/firefox-desktop/usage-reporting/1/0cfb"),
        ("GET", "https://location.services.mozilla.com/v1/country?key=x"),
        ("GET", "https://normandy.cdn.mozilla.net/api/v1/"),
        ("GET", "https://aus5.mozilla.org/update/3/GMP/153.7.0/20261103151912/Linux_x86_64-gcc3/en-US"),
        ("GET", "https://ads.mozilla.org/v1/ads-preflight"),
        ("GET", "https://services.addons.mozilla.org/api/v4/addons/search/"),
        ("GET", "https://prod.ohttp-gateway.prod.webservices.mozgcp.net/ohttp-configs"),
        ("GET", "https://www.mozilla.org/privacy/firefox/"),
        ("CONNECT", "https://shavar.services.mozilla.com:443"),
        // A tunnel not intercepted, to any host: nothing in it can be checked.
        ("CONNECT", "https://start.duckduckgo.com:443"),
        ("CONNECT", "https://shop.example:443"),
        // A CORS preflight, sent or not as the browser cached it, and the favicon, fetched once.
        ("OPTIONS", "https://api.segment.io/v1/t"),
        ("GET", "http://127.0.0.1:8080/favicon.ico"),
        ("GET", "http://127.0.0.1:8080/__tracksnap/s/s2/favicon.ico"),
    ]

    /// A page's own requests, among them Google's and vendors' hosts next to the browsers' ones.
    static let pages: [(String, String)] = [
        ("GET", "http://127.0.0.1:8080/pixel.gif?ev=page_view"),
        ("POST", "http://t.example/collect?ev=beacon"),
        ("GET", "https://shop.example/"),
        ("GET", "https://www.google-analytics.com/g/collect?v=2&en=page_view"),
        ("GET", "https://region1.google-analytics.com/g/collect?v=2&en=page_view"),
        ("POST", "https://analytics.google.com/g/collect?v=2"),
        ("GET", "https://www.googletagmanager.com/gtag/js?id=G-X"),
        ("GET", "https://accounts.google.com/gsi/client"),
        ("GET", "https://fonts.googleapis.com/css2?family=Inter"),
        ("GET", "https://www.googleapis.com/youtube/v3/videos"),
        ("POST", "https://api.segment.io/v1/t"),
        ("GET", "https://notmozilla.org/"),
        ("GET", "https://update.googleapis.com.shop.example/"),
        ("GET", "https://mozilla.shop.example/"),
        ("GET", "https://shop.example/favicon.ico.html"),
        ("GET", "https://shop.example/img/favicon-32.png"),
    ]

    static func request(_ method: String, _ url: String) -> CapturedRequest {
        CapturedRequest(id: "0", method: method, url: url, headers: [])
    }

    @Test("a browser's own request is left out", arguments: browsers)
    func browserTraffic(method: String, url: String) {
        #expect(!Profile.builtInDefault.filter.accepts(Self.request(method, url)))
    }

    @Test("a page's own request is selected", arguments: pages)
    func pageTraffic(method: String, url: String) {
        #expect(Profile.builtInDefault.filter.accepts(Self.request(method, url)))
    }

    @Test(
        "each vendor profile still selects its SDK's traffic, and default does too",
        arguments: BuiltInProfileTests.vendors)
    func vendorsUnaffected(vendor: String) throws {
        let profile = try #require(Profile.builtIn(vendor))
        for request in try VendorFilterTests.capture(vendor) {
            #expect(profile.filter.accepts(request), "\(vendor) \(request.url)")
            #expect(Profile.builtInDefault.filter.accepts(request), "default \(request.url)")
        }
    }
}
