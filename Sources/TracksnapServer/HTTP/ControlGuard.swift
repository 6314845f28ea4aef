import Foundation
import NIOCore
import NIOHTTP1

/// What a control API request must show before it reaches `ControlAPI`: that it was addressed
/// to this server, and that it does not come from a page on another site.
///
/// ```swift
/// if let refusal = guard.refusal(of: request) { return .now(refusal) }
/// ```
///
/// - The `Host` names the server's own address: the bound host, `localhost`, `127.0.0.1`,
///   `[::1]` or the address the connection arrived on, each with the server's port, or a name
///   allowed with `--allow-host`. Anything else is 421: a DNS-rebinding page reaches the
///   server under its own name.
/// - An `Origin` other than the server's own is 403, whatever the method: a page elsewhere
///   neither reads nor changes anything, and its answers carry no CORS headers.
/// - A state-changing call (anything but GET, HEAD, OPTIONS) marked `Sec-Fetch-Site:
///   cross-site` or `same-site` is 403, and one with a body must say `Content-Type:
///   application/json` (415 otherwise), which a page can send to another origin only after a
///   preflight this guard refuses.
///
/// Requests without `Origin` or `Sec-Fetch-Site` (curl, SDKs, `TracksnapClient`) pass.
struct ControlGuard: Sendable {
    /// The bound host, the loopback names, and the `--allow-host` names, lowercased.
    private let ownHosts: Set<String>
    /// `--allow-host` entries that name no port: any port goes.
    private let allowedAnyPort: Set<String>
    /// `--allow-host` entries with a port.
    private let allowedExactly: Set<Authority>

    init(configuration: CaptureServer.Configuration) {
        var own: Set<String> = ["localhost", "127.0.0.1", "::1"]
        if let bound = Authority(configuration.host) ?? Authority("[\(configuration.host)]") { own.insert(bound.host) }
        ownHosts = own
        var anyPort: Set<String> = []
        var exactly: Set<Authority> = []
        for entry in configuration.allowedHosts {
            guard let authority = Authority(entry) ?? Authority("[\(entry)]") else { continue }
            if authority.port == nil { anyPort.insert(authority.host) } else { exactly.insert(authority) }
        }
        allowedAnyPort = anyPort
        allowedExactly = exactly
    }

    /// The refusal to answer instead of the control API's, or nil when the request may pass.
    func refusal(of request: IncomingRequest) -> Response? {
        guard let host = request.headers.first(name: "Host"), let authority = Authority(host),
            isOwn(authority, request: request, defaultPort: 80)
        else {
            let named = request.headers.first(name: "Host").map { "\"\($0)\"" } ?? "no Host"
            return .error(
                .misdirectedRequest,
                "the control API answers only requests addressed to this server, not \(named) (serve --allow-host NAME adds a name)"
            )
        }
        if let origin = request.headers.first(name: "Origin"), !isOwnOrigin(origin, request: request) {
            return .error(.forbidden, "the control API does not answer pages on other origins (Origin \"\(origin)\")")
        }
        guard Self.changesState(request.method) else { return nil }
        if let site = request.headers.first(name: "Sec-Fetch-Site")?.lowercased(),
            site == "cross-site" || site == "same-site"
        {
            return .error(
                .forbidden, "the control API refuses state-changing calls from other sites (Sec-Fetch-Site: \(site))")
        }
        if request.body.readableBytes > 0 && !Self.isJSON(request.headers.first(name: "Content-Type")) {
            return .error(.unsupportedMediaType, "a control API call with a body needs Content-Type: application/json")
        }
        return nil
    }

    /// Whether `origin` is the server's own: an http(s) origin whose authority passes the
    /// same test as the `Host`. `null` never is.
    func isOwnOrigin(_ origin: String, request: IncomingRequest) -> Bool {
        guard let authority = Authority(origin: origin) else { return false }
        return isOwn(authority, request: request, defaultPort: authority.port ?? 80)
    }

    private func isOwn(_ authority: Authority, request: IncomingRequest, defaultPort: Int) -> Bool {
        if allowedAnyPort.contains(authority.host) || allowedExactly.contains(authority) { return true }
        guard let serverPort = request.localAddress?.port else { return false }
        guard (authority.port ?? defaultPort) == serverPort else { return false }
        if ownHosts.contains(authority.host) { return true }
        // Bound to every interface, the server is reached by the address the client dialled,
        // which is an address literal, never a name a rebinding page controls.
        if let local = request.localAddress.flatMap(IPAddress.init), let named = IPAddress.parse(authority.host) {
            return local == named
        }
        return false
    }

    private static func changesState(_ method: HTTPMethod) -> Bool {
        method != .GET && method != .HEAD && method != .OPTIONS
    }

    /// `application/json` or `application/*+json`, parameters aside.
    private static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type =
            contentType.split(separator: ";", maxSplits: 1).first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
        return type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
    }

    /// A control API answer with CORS headers only for the server's own origin: `ControlAPI`
    /// adds them for whatever `Origin` came, so they are taken off again here.
    func restrictingCORS(_ response: Response, for request: IncomingRequest) -> Response {
        var response = response
        for name in [
            "Access-Control-Allow-Origin", "Access-Control-Allow-Credentials", "Access-Control-Allow-Methods",
            "Access-Control-Allow-Headers", "Access-Control-Max-Age", "Access-Control-Expose-Headers", "Vary",
        ] {
            response.headers.remove(name: name)
        }
        // What the control API answers is captured traffic, tokens included: no cache keeps it.
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        if let origin = request.headers.first(name: "Origin"), isOwnOrigin(origin, request: request) {
            response.headers.add(contentsOf: CORS.headers(for: request.headers))  // with `Vary: Origin`
        } else {
            response.headers.add(name: "Vary", value: "Origin")
        }
        return response
    }
}
