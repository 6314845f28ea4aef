import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

extension CapturedRequest {
    /// Whether the host is one of these domains or a subdomain of one.
    func isHost(in domains: [String]) -> Bool {
        let host = self.host
        return domains.contains { host == $0 || host.hasSuffix("." + $0) }
    }

    /// The path without its trailing slashes, so that `/batch/` and `/batch` read alike.
    var trimmedPath: Substring {
        var path = Substring(path)
        while path.count > 1, path.last == "/" { path = path.dropLast() }
        return path
    }

    /// The first of these suffixes (each starting with `/`) the trimmed path ends with:
    /// `/v1/batch` matches `/v1/batch` and a proxy's `/segment/v1/batch`, not `/xv1/batch`.
    func pathEnds(with suffixes: [String]) -> String? {
        let path = trimmedPath
        return suffixes.first { path.hasSuffix($0) }
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// The object without these members.
    func removing(_ keys: Set<String>) -> [String: JSONValue] {
        filter { !keys.contains($0.key) }
    }
}
