import NIOCore
import NIOHTTP1
import TracksnapReports

/// The inspector's page and its assets (`Assets/`, compiled into the module: nothing is read
/// from disk or fetched from elsewhere at run time), served under `/__tracksnap/ui/`.
///
/// ```text
/// GET /__tracksnap/ui/               → 200 the page (text/html)
/// GET /__tracksnap/ui/inspector.js   → 200 its script; inspector.css, its style
/// GET /__tracksnap/ui/review.js      → 200 the snapshot panel's script: validate, record, review
/// GET /__tracksnap/ui/report.css      → 200 the HTML report's style, for the validations it shows
/// ```
///
/// They hold nothing captured, so a browser's navigation fetches them without the token (it
/// cannot send `Authorization`); the `ControlGuard`'s Host and Origin rules apply as to every
/// control call. The page takes the token from its address's fragment (`#token=…`, which no
/// browser sends to a server, puts in a `Referer` or keeps once the page has read it), keeps it
/// in the tab's `sessionStorage`, and sends it as `Authorization: Bearer` on every call, the
/// live stream included. Every answer carries a Content-Security-Policy that allows scripts,
/// styles and connections to this server only and no inline script or style, so that captured
/// text the page shows can never run as code.
enum Inspector {
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The assets by file name, with their content types.
    private static let assets: [String: (bytes: [UInt8], type: String)] = [
        "index.html": (PackageResources.index_html, "text/html; charset=utf-8"),
        "inspector.js": (PackageResources.inspector_js, "text/javascript; charset=utf-8"),
        "inspector.css": (PackageResources.inspector_css, "text/css; charset=utf-8"),
        "review.js": (PackageResources.review_js, "text/javascript; charset=utf-8"),
        "report.css": (Array(HTMLRenderer.style.utf8), "text/css; charset=utf-8"),
    ]

    static var page: Response { asset(named: "index.html") }

    /// `/__tracksnap/ui` → `/__tracksnap/ui/`, where the page's relative asset paths resolve.
    static var redirectToPage: Response {
        secured(Response(status: .permanentRedirect, headers: ["Location": ControlAPI.prefix + "ui/"]))
    }

    /// An asset, or 404 naming the ones there are.
    static func asset(named name: String) -> Response {
        guard let asset = assets[name] else {
            return .error(
                .notFound,
                "the inspector has no asset \"\(name)\"; it has \(assets.keys.sorted().joined(separator: ", "))")
        }
        return secured(
            Response(status: .ok, headers: ["Content-Type": asset.type], body: ByteBuffer(bytes: asset.bytes)))
    }

    /// The headers every inspector answer carries: the policy, no type sniffing, no caching,
    /// no framing, no `Referer`.
    static func secured(_ response: Response) -> Response {
        var response = response
        response.headers.replaceOrAdd(name: "Content-Security-Policy", value: contentSecurityPolicy)
        response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        response.headers.replaceOrAdd(name: "X-Frame-Options", value: "DENY")
        response.headers.replaceOrAdd(name: "Referrer-Policy", value: "no-referrer")
        return response
    }
}
