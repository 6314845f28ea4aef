import NIOHTTP1
import Testing

@testable import TracksnapServer

/// What the proxy drops before passing a message on (RFC 9110 §7.6.1), in any case.
@Suite("Hop-by-hop headers")
struct HopByHopTests {
    @Test("the connection's own headers go, in any case, with those Connection names; the rest stay in order")
    func removing() {
        let headers: HTTPHeaders = [
            "Accept": "*/*", "CONNECTION": "close, X-Trace ,  x-hop", "Keep-Alive": "timeout=5",
            "transfer-encoding": "chunked", "Proxy-Authorization": "Basic c2VjcmV0", "X-Trace": "1", "TE": "trailers",
            "Upgrade": "h2c", "X-HOP": "2", "Trailer": "Expires", "Proxy-Connection": "keep-alive",
            "Proxy-Authenticate": "Basic", "Set-Cookie": "a=1", "set-cookie": "b=2",
        ]
        let kept = HopByHop.removing(from: headers)
        #expect(kept.map { "\($0.name): \($0.value)" } == ["Accept: */*", "Set-Cookie: a=1", "set-cookie: b=2"])
    }

    @Test("the names a caller adds go too, whatever their case")
    func alsoRemoving() {
        let headers: HTTPHeaders = ["Host": "a.example", "content-length": "3", "X-Tracksnap-Session": "s", "X-A": "1"]
        let kept = HopByHop.removing(
            from: headers, alsoRemoving: ["host", "Content-Length", "x-tracksnap-session"])
        #expect(kept.map(\.name) == ["X-A"])
        #expect(HopByHop.removing(from: headers).count == 4)
    }
}
