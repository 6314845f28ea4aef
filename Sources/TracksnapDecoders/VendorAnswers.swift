/// How a vendor's own server answers its SDK, where the SDK reads the answer: what the capture
/// server answers such traffic inside an intercepted tunnel instead of its usual JSON, unless it
/// was made with a collector answer of its own (`CaptureServer.Configuration.collectorResponse`).
///
/// ```swift
/// VendorAnswers.isEmpty(host: "app-measurement.com", path: "/a")  // true: 204, no body
/// ```
package enum VendorAnswers {
    /// Whether the vendor answers this upload with an empty 204: Firebase's `/a`, whose SDK
    /// deletes the batch it sent on a 2xx and needs no body.
    package static func isEmpty(host: String, path: Substring) -> Bool {
        var path = path
        while path.count > 1, path.last == "/" { path = path.dropLast() }
        let host = host.lowercased()
        return path == "/a" && Firebase.hosts.contains { host == $0 || host.hasSuffix("." + $0) }
    }
}
