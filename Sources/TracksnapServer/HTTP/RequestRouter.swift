import Foundation
import NIOCore
import NIOHTTP1
import TracksnapDecoders
import TracksnapReplay
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

/// Decides what happens to each request: the control API, or captured traffic answered by the
/// collector or forwarded (reverse or forward proxy), recorded in every case.
///
/// ```swift
/// switch router.reply(to: request) { case .now(let response): … case .later(let work): … }
/// ```
final class RequestRouter: Sendable {
    let configuration: CaptureServer.Configuration
    let store: CaptureStore
    let forwarder: Forwarder
    private let control: ControlAPI
    private let controlGuard: ControlGuard
    let proxyGuard: ProxyGuard
    /// Set when `serve --intercept` names tunnels to decrypt.
    let interceptor: Interceptor?
    private let collectorResponse: Response
    /// Whether the collector answers as the configuration's default does, so that a vendor whose
    /// SDK reads the answer gets its own (`VendorAnswers`).
    private let answersAsVendors: Bool

    init(
        configuration: CaptureServer.Configuration, store: CaptureStore, browserToken: String? = nil
    ) throws(CaptureServerError) {
        self.configuration = configuration
        self.store = store
        forwarder = try Forwarder()
        interceptor =
            configuration.interception == nil ? nil : try Interceptor(configuration: configuration, store: store)
        control = ControlAPI(
            store: store, token: configuration.token.map(AccessToken.init),
            browserToken: configuration.token == nil ? browserToken.map(AccessToken.init) : nil,
            workspace: Workspace(
                validators: configuration.validatorsDirectory,
                root: configuration.root ?? FileManager.default.currentDirectoryPath,
                extensions: configuration.extensions ?? .registered),
            requestLog: configuration.requestLog, notices: configuration.notices,
            cassetteRecordMode: configuration.cassetteRecordMode)
        controlGuard = ControlGuard(configuration: configuration)
        proxyGuard = ProxyGuard(configuration: configuration)
        let answer = configuration.collectorResponse
        var headers = HTTPHeaders()
        if let type = answer.contentType { headers.add(name: "Content-Type", value: type) }
        collectorResponse = Response(
            status: HTTPResponseStatus(statusCode: answer.status), headers: headers,
            body: ByteBuffer(string: answer.body))
        answersAsVendors = answer == CaptureServer.CollectorResponse()
    }

    /// The answer to a request the server received, or (`tunnel`) one inside an intercepted
    /// tunnel; either way its body is decoded the same way first.
    func reply(to request: IncomingRequest, in tunnel: InterceptedTunnel? = nil) -> Reply {
        let uri = request.head.uri
        // HTTP/1's parser takes only a token as the method; HTTP/2's `:method` arrives as sent.
        // Anything else is neither recorded nor forwarded: shown later as a word (the
        // inspector's "Copy as curl"), it could be a command.
        guard HTTPToken.isToken(request.head.method.rawValue) else {
            return .now(.error(.badRequest, "the method is not an HTTP token (RFC 9110): the request is not recorded"))
        }
        let destination = Destination(uri: uri, tunnel: tunnel)
        switch destination {
        case .control:
            return controlReply(to: request)
        case .forwardProxy(let target):
            // Refused before its body is even decoded when the guard says so.
            if let refusal = proxyGuard.refusal(
                request.head, client: request.remoteAddress, targetHost: target?.host ?? "")
            {
                return .now(refusal)
            }
        case .tunnel, .served:
            break
        }
        let reply = { @Sendable [self] (decoded: Decoded) -> Reply in
            switch destination {
            case .tunnel(let tunnel): self.reply(to: request, decoded: decoded, in: tunnel)
            case .forwardProxy(let target): self.reply(to: request, decoded: decoded, forwardingTo: target)
            case .served, .control: self.reply(to: request, decoded: decoded)
            }
        }
        guard request.body.readableBytes > 0, !request.isPreflight else { return reply((nil, nil)) }
        // A body is decoded where it arrived when that is cheap: every layer together inflates
        // within `inlineBudget`. Anything more goes to the thread pool, so that inflating one
        // client's body never holds up the event loop's other clients.
        let bytes = Array(request.body.readableBytesView)
        let encoding = request.headers.first(name: "Content-Encoding")
        let limit = configuration.maximumBodySize
        if bytes.count <= Self.inlineBudget {
            let quick = Self.decode(bytes, encoding: encoding, limit: min(limit, Self.inlineBudget))
            if quick.refused == nil || limit <= Self.inlineBudget { return reply(quick) }
        }
        return .later {
            let decoded = await BlockingWork.run(for: uri) { Self.decode(bytes, encoding: encoding, limit: limit) }
            switch reply(decoded) {
            case .now(let response): return response
            case .later(let work): return await work()
            }
        }
    }

    /// Where a request goes, decided once from its target and the connection it came on.
    private enum Destination: Sendable {
        /// The control API (`/__tracksnap/…`, not a session's base URL).
        case control
        /// Absolute-form (`GET http://host/path`, as `curl -x` and `http_proxy` send): the
        /// forward proxy, to the URL parsed (nil when it does not parse).
        case forwardProxy(URL?)
        /// Inside an intercepted tunnel.
        case tunnel(InterceptedTunnel)
        /// This server's own traffic: the collector, or the reverse proxy with `--upstream`.
        case served

        init(uri: String, tunnel: InterceptedTunnel?) {
            if let tunnel {
                self = .tunnel(tunnel)
            } else if uri.hasPrefix(ControlAPI.prefix) && !uri.hasPrefix(SessionRouting.prefix) {
                self = .control
            } else if !uri.hasPrefix("/"), uri.contains("://") {
                self = .forwardProxy(URL(string: uri))
            } else {
                self = .served
            }
        }
    }

    /// The most a body may inflate to, all layers together, to be decoded on the event loop.
    static let inlineBudget = 64 * 1024

    /// A body as recorded, or why it is refused.
    typealias Decoded = (body: CapturedRequest.Body?, refused: BodyDecoder.Refusal?)

    private static func decode(_ bytes: [UInt8], encoding: String?, limit: Int) -> Decoded {
        do throws(BodyDecoder.Refusal) {
            return (try BodyDecoder(limit: limit).body(bytes, contentEncoding: encoding), nil)
        } catch {
            return (nil, error)
        }
    }

    /// The answer to captured traffic, its body decoded: recorded, then answered by the
    /// collector or forwarded; a body that inflates beyond the limit is recorded as refused,
    /// without its body, and answered 413.
    private func reply(to request: IncomingRequest, decoded: Decoded) -> Reply {
        let uri = request.head.uri
        let refused = decoded.refused?.description
        let limit = configuration.maximumBodySize
        var target = uri
        var sessionHint = request.headers.first(name: SessionRouting.headerName)
        if let (session, rest) = SessionRouting.split(uri) {
            sessionHint = session
            target = rest
        }
        // The URL's origin is this server's, as the client addressed it: recording writes it as a
        // pattern, so that a snapshot passes against the next server on another port.
        let host = request.headers.first(name: "Host") ?? configuration.host
        let own = (url: "http://\(host)\(target)", origin: "http://\(host)")
        if let upstream = configuration.upstream {
            var base = upstream.absoluteString
            while base.hasSuffix("/") { base.removeLast() }
            let url = base + target
            // Matched without its origin: a cassette recorded in front of one backend replays in front of another.
            return forwarding(
                request, url: url, recordedAs: own.url, serverOrigin: own.origin, ignoringOrigin: true,
                body: decoded.body, refused: refused, sessionHint: sessionHint
            ) { [forwarder] in
                await forwarder.forward(request, to: url, responseLimit: limit)
            }
        }
        let recorded =
            request.isPreflight
            ? nil
            : record(
                request, url: own.url, body: decoded.body, refused: refused, sessionHint: sessionHint,
                serverOrigin: own.origin)
        if let refused { return logged(recorded, refusal(refused, request)) }
        if request.isPreflight { return .now(CORS.preflight(for: request.headers)) }
        var response = collectorResponse
        response.headers.add(contentsOf: CORS.headers(for: request.headers))
        return logged(recorded, .now(response))
    }

    /// The answer to a forward-proxy request (absolute-form), its body decoded: recorded and
    /// forwarded to `target` as `forwarding` does.
    private func reply(to request: IncomingRequest, decoded: Decoded, forwardingTo target: URL?) -> Reply {
        let uri = request.head.uri
        let targetHost = target?.host ?? ""
        let targetPort = target?.port ?? (target?.scheme?.lowercased() == "https" ? 443 : 80)
        return forwarding(
            request, url: uri, body: decoded.body, refused: decoded.refused?.description,
            sessionHint: request.headers.first(name: SessionRouting.headerName)
        ) { [self] in
            await forwardAsProxy(request, to: uri, host: targetHost, port: targetPort, with: forwarder)
        }
    }

    /// 413 for a body that inflates beyond the limit.
    private func refusal(_ reason: String, _ request: IncomingRequest) -> Reply {
        var response = Response.error(.payloadTooLarge, reason + " (--max-body-size)")
        response.headers.add(contentsOf: CORS.headers(for: request.headers))
        return .now(response)
    }

    /// The answer to a request inside an intercepted tunnel: recorded under its `https://` URL as
    /// the collector records one (a CORS preflight is not recorded), then answered as the
    /// collector answers, or forwarded to the real host.
    private func reply(to request: IncomingRequest, decoded: Decoded, in tunnel: InterceptedTunnel) -> Reply {
        if request.method == .CONNECT {
            return .now(.error(.methodNotAllowed, "CONNECT inside an intercepted tunnel is not relayed"))
        }
        let uri = request.head.uri
        guard uri.hasPrefix("/") else {
            return .now(.error(.badRequest, "inside a tunnel to \(tunnel.host) a request names a path, not \"\(uri)\""))
        }
        let url = tunnel.origin + uri
        let sessionHint = request.headers.first(name: SessionRouting.headerName) ?? tunnel.sessionHint
        let refused = decoded.refused?.description
        switch tunnel.action {
        case .forward:
            guard let forwarder = interceptor?.forwarder else {
                return .now(.error(.internalServerError, "no interceptor"))
            }
            return forwarding(request, url: url, body: decoded.body, refused: refused, sessionHint: sessionHint) {
                [self] in
                await forwardAsProxy(request, to: url, host: tunnel.host, port: tunnel.port, with: forwarder)
            }
        case .answer:
            let recorded =
                request.isPreflight
                ? nil : record(request, url: url, body: decoded.body, refused: refused, sessionHint: sessionHint)
            if let refused { return logged(recorded, refusal(refused, request)) }
            if request.isPreflight { return .now(CORS.preflight(for: request.headers)) }
            var response =
                answersAsVendors && VendorAnswers.isEmpty(host: tunnel.host, path: uri.prefix { $0 != "?" })
                ? Response(status: .noContent) : collectorResponse
            response.headers.add(contentsOf: CORS.headers(for: request.headers))
            return logged(recorded, .now(response))
        }
    }

    /// A request that would be forwarded (reverse proxy, forward proxy, intercepted tunnel):
    /// recorded, and answered through the cassette when there is one (the session's, else the
    /// server's) with its recorded answer, or a miss (599, the miss as JSON, a notice, and the
    /// miss recorded with the request), or forwarded with what the upstream answered recorded
    /// into the cassette. A CORS preflight is forwarded, not recorded.
    /// - Parameters:
    ///   - url: where it goes: what the cassette matches and records.
    ///   - recordedAs: the URL captured, when not `url` (the reverse proxy records its own).
    ///   - serverOrigin: this server's origin in `recordedAs`.
    ///   - ignoringOrigin: match no scheme, host or port (the reverse proxy's backend).
    ///   - forward: sends it.
    private func forwarding(
        _ request: IncomingRequest, url: String, recordedAs: String? = nil, serverOrigin: String? = nil,
        ignoringOrigin: Bool = false, body: CapturedRequest.Body?, refused: String?, sessionHint: String?,
        forward: @escaping @Sendable () async -> Response
    ) -> Reply {
        if request.isPreflight { return .later(forward) }
        // The cassette decides before the request is recorded, so that a miss is recorded with it
        // (and journaled): the session's cassette, else the server's.
        let replay =
            refused == nil ? store.session(receiving: sessionHint).flatMap(store.cassette) ?? configuration.replay : nil
        let asked = CapturedRequest(
            id: "", method: request.method.rawValue, url: url, headers: Self.headers(request.headers), body: body)
        guard let replay else {
            let recorded = store.recordAttributed(
                method: asked.method, url: recordedAs ?? url, headers: asked.headers, body: body,
                sessionHint: sessionHint, serverOrigin: serverOrigin, refused: refused)
            if let refused { return logged(recorded, refusal(refused, request)) }
            return logged(recorded, .later(forward))
        }
        // A hit in the cassette's index is answered here; a miss (its nearest interactions
        // looked for) and a request with many candidates are decided on replay's own thread,
        // and the loop's other clients are answered meanwhile.
        let answered = { @Sendable [self] (decision: CassettePlayer.Decision) -> Reply in
            var miss: ReplayMiss?
            if case .miss(let missed) = decision { miss = missed }
            let recorded = store.recordAttributed(
                method: asked.method, url: recordedAs ?? url, headers: asked.headers, body: body,
                sessionHint: sessionHint, serverOrigin: serverOrigin, replayMiss: miss?.description)
            switch decision {
            case .replay(let recordedAnswer):
                let accepted = request.headers["Accept-Encoding"].joined(separator: ", ")
                return logged(
                    recorded,
                    .now(Response(replayed: recordedAnswer, acceptEncoding: accepted.isEmpty ? nil : accepted)))
            case .miss(let miss):
                for line in miss.lines { configuration.notices?(line) }
                return logged(
                    recorded,
                    .now(.json(HTTPResponseStatus(statusCode: 599, reasonPhrase: "Not In Cassette"), miss.json)))
            case .forward:
                return logged(
                    recorded,
                    .later {
                        let response = await forward()
                        if response.isUpstreamAnswer { replay.record(asked, response: Interaction.Response(response)) }
                        return response
                    })
            }
        }
        switch replay.lookup(for: asked, ignoringOrigin: ignoringOrigin) {
        case .decided(let decision):
            return answered(decision)
        case .later(let lookup):
            return .later {
                switch answered(await BlockingWork.replaying(lookup.decide)) {
                case .now(let response): return response
                case .later(let work): return await work()
                }
            }
        }
    }

    /// Forwards a forward-proxy request (absolute-form, or inside an intercepted tunnel) to
    /// `url`, whose host and port are given: for a client elsewhere, to the address the guard
    /// resolved and checked, never to a second answer for the name.
    private func forwardAsProxy(
        _ request: IncomingRequest, to url: String, host: String, port: Int, with forwarder: Forwarder
    ) async -> Response {
        do {
            let address = try await proxyGuard.pinnedAddress(of: host, port: port, client: request.remoteAddress)
            return await forwarder.forward(
                request, to: url, connectingTo: address, responseLimit: configuration.maximumBodySize)
        } catch {
            return error.response
        }
    }

    /// The control API's answer, once the guard lets the request through, with CORS headers
    /// for the server's own origin only.
    private func controlReply(to request: IncomingRequest) -> Reply {
        if let refusal = controlGuard.refusal(of: request) {
            return .now(controlGuard.restrictingCORS(refusal, for: request))
        }
        // Past the guard, a preflight comes from the server's own origin, or names none.
        if request.isPreflight { return .now(CORS.preflight(for: request.headers)) }
        switch control.reply(to: request) {
        case .now(let response):
            return .now(controlGuard.restrictingCORS(response, for: request))
        case .later(let work):
            return .later { [controlGuard] in controlGuard.restrictingCORS(await work(), for: request) }
        }
    }

    /// Records a `CONNECT`: method CONNECT, the tunnel's URL, the headers; nothing inside the
    /// tunnel is visible.
    ///
    /// - Returns: what to pass to `log(_:status:)` once the tunnel is open or has failed.
    func recordTunnel(_ head: HTTPRequestHead, target: TunnelTarget) -> Recorded {
        store.recordAttributed(
            method: "CONNECT", url: target.recordedURL, headers: Self.headers(head.headers),
            sessionHint: head.headers.first(name: SessionRouting.headerName))
    }

    /// A request as recorded, and the session it went to.
    typealias Recorded = (request: CapturedRequest, attribution: CaptureStore.Attribution)

    /// Hands the log line of a recorded request to the configuration's `requestLog`.
    func log(_ recorded: Recorded, status: Int?) {
        configuration.requestLog?(RequestLogLine.line(of: recorded, status: status, in: store))
    }

    /// The reply, once the answer is known kept for the inspector (`CaptureStore.answered`) and
    /// logged with the recorded request.
    private func logged(_ recorded: Recorded?, _ reply: Reply) -> Reply {
        guard let recorded else { return reply }
        switch reply {
        case .now(let response):
            answered(recorded, response)
            return reply
        case .later(let work):
            return .later { [self] in
                let response = await work()
                answered(recorded, response)
                return response
            }
        }
    }

    private func answered(_ recorded: Recorded, _ response: Response) {
        store.answered(
            recorded.request.id,
            CapturedAnswer(
                status: Int(response.status.code), headers: Self.headers(response.headers), body: response.body))
        if configuration.requestLog != nil { log(recorded, status: Int(response.status.code)) }
    }

    private func record(
        _ request: IncomingRequest, url: String, body: CapturedRequest.Body?, refused: String?, sessionHint: String?,
        serverOrigin: String? = nil
    ) -> Recorded {
        store.recordAttributed(
            method: request.method.rawValue, url: url, headers: Self.headers(request.headers),
            body: body, sessionHint: sessionHint, serverOrigin: serverOrigin, refused: refused)
    }

    private static func headers(_ headers: HTTPHeaders) -> [CapturedRequest.Header] {
        headers.map { CapturedRequest.Header(name: $0.name, value: $0.value) }
    }
}
