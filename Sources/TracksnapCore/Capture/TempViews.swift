// TEMPORARY until the capture branch lands: minimal request views.
import Foundation

enum QueryString {
    static func parse(_ query: String) -> [(name: String, value: String)] {
        query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String {
                let plus = s.replacingOccurrences(of: "+", with: " ")
                return plus.removingPercentEncoding ?? plus
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }
}

extension CapturedRequest {
    public var urlWithoutQuery: String {
        String(url.prefix { $0 != "?" && $0 != "#" })
    }
    public var host: String { URLComponents(string: url)?.host ?? "" }
    public var path: String { URLComponents(string: url)?.path ?? "" }
    public var queryItems: [(name: String, value: String)] {
        guard let q = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return [] }
        return QueryString.parse(String(q.prefix { $0 != "#" }))
    }
    public var formItems: [(name: String, value: String)] {
        guard header("Content-Type")?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true, let text = bodyText else { return [] }
        return QueryString.parse(text)
    }
    public var parameters: [(name: String, value: String)] { queryItems + formItems }
    public var bodyText: String? {
        switch body {
        case .text(let t): t
        case .base64(let b): Data(base64Encoded: b).flatMap { String(data: $0, encoding: .utf8) }
        case nil: nil
        }
    }
}
