import Foundation
import Synchronization
import TracksnapTraffic

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The URLProtocol that records a configuration's requests, then forwards or answers them.
///
/// Never installed itself: each capture installs a `SlotProtocol` subclass of its own, and the
/// dynamic class tells which capture a request belongs to (see `CaptureRegistry`).
///
/// URLProtocol is not `Sendable` on Linux, yet URLSession calls `startLoading` and
/// `stopLoading` on its own threads and the forwarded task completes on another: the only
/// mutable state here, the forwarded task, sits behind a `Mutex`.
class CaptureURLProtocol: URLProtocol {
    private enum Forwarding {
        case idle
        case running(URLSessionDataTask)
        case stopped
    }

    private let forwarding = Mutex(Forwarding.idle)

    /// Carries the protocol instance into URLSession's callbacks. Safe because every use goes
    /// through `forwarding`'s lock or URLProtocolClient, which URLSession makes thread-safe.
    private struct Unchecked: @unchecked Sendable {
        let value: CaptureURLProtocol
        init(_ value: CaptureURLProtocol) { self.value = value }
    }

    override class func canInit(with request: URLRequest) -> Bool {
        // Only HTTP: a WebSocket or FTP task of the same session goes on as usual.
        guard let scheme = request.url?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    override func startLoading() {
        let request = self.request
        guard let sink = CaptureRegistry.sink(for: type(of: self)) else {
            // Only a class the registry made is ever installed; this cannot happen.
            client?.urlProtocol(self, didFailWithError: URLError(.cancelled))
            return
        }
        let body = RequestSnapshot.bodyBytes(of: request)
        let captured = sink.recorder.append { id in
            RequestSnapshot.capture(
                request, body: body, id: id, session: sink.name, additionalHeaders: sink.additionalHeaders)
        }
        guard let reporter = sink.reporter else {
            answer(request, body: body, captured: captured, sink: sink)
            return
        }
        let this = Unchecked(self)
        reporter.report(captured) {
            this.value.answer(request, body: body, captured: captured, sink: sink)
        }
    }

    /// Forwards the request or answers it, as the capture's mode says.
    private func answer(_ request: URLRequest, body: [UInt8]?, captured: CapturedRequest, sink: CaptureSink) {
        // The app may have cancelled while the request was being reported.
        let stopped = forwarding.withLock { state -> Bool in
            if case .stopped = state { return true }
            return false
        }
        if stopped { return }
        switch sink.mode {
        case .passThrough:
            forward(request, body: body, sink: sink, received: nil)
        case .respond(let status, let headers, let body):
            respond(CaptureResponse(status: status, headers: headers, body: body))
        case .reply(let reply):
            respond(reply(captured))
        case .answer(let decide, _):
            switch decide(captured) {
            case .respond(let response): respond(response)
            case .forward(let received): forward(request, body: body, sink: sink, received: received)
            }
        }
    }

    override func stopLoading() {
        let previous = forwarding.withLock { state -> Forwarding in
            defer { state = .stopped }
            return state
        }
        if case .running(let task) = previous { task.cancel() }
    }

    private func respond(_ response: CaptureResponse) {
        guard let url = request.url,
            let head = HTTPURLResponse(
                url: url, statusCode: response.status, httpVersion: "HTTP/1.1", headerFields: response.headers)
        else {
            client?.urlProtocol(self, didFailWithError: URLError(.badURL))
            return
        }
        client?.urlProtocol(self, didReceive: head, cacheStoragePolicy: .notAllowed)
        if !response.body.isEmpty { client?.urlProtocol(self, didLoad: response.body) }
        client?.urlProtocolDidFinishLoading(self)
    }

    private func forward(
        _ request: URLRequest, body: [UInt8]?, sink: CaptureSink, received: (@Sendable (CaptureResponse) -> Void)?
    ) {
        guard let forwarder = sink.forwarder else {
            client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
            return
        }
        var outgoing = request
        if let body {
            // The stream, if there was one, has been read to record the body.
            outgoing.httpBodyStream = nil
            outgoing.httpBody = Data(body)
        }
        let this = Unchecked(self)
        let outgoingRequest = outgoing
        // On Linux, creating a task on the queue that runs `startLoading` deadlocks: hop off it.
        DispatchQueue.global().async {
            let task = forwarder.dataTask(with: outgoingRequest) { data, response, error in
                if error == nil, let http = response as? HTTPURLResponse, let received {
                    let headers = http.allHeaderFields.reduce(into: [String: String]()) { headers, field in
                        if let name = field.key as? String { headers[name] = "\(field.value)" }
                    }
                    received(CaptureResponse(status: http.statusCode, headers: headers, body: data ?? Data()))
                }
                this.value.finish(data: data, response: response, error: error)
            }
            let started = this.value.forwarding.withLock { state -> Bool in
                guard case .idle = state else { return false }
                state = .running(task)
                return true
            }
            if started { task.resume() } else { task.cancel() }
        }
    }

    private func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
        let wasStopped = forwarding.withLock { state -> Bool in
            defer { state = .stopped }
            if case .stopped = state { return true }
            return false
        }
        if wasStopped { return }
        if let error {
            client?.urlProtocol(self, didFailWithError: error)
            return
        }
        if let response { client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed) }
        if let data, !data.isEmpty { client?.urlProtocol(self, didLoad: data) }
        client?.urlProtocolDidFinishLoading(self)
    }
}
