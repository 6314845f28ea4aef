public import TracksnapJSON
import TracksnapSnapshot
public import TracksnapTraffic

extension CapturedRequest {
    /// The request as the JSON object a snapshot's `requests` entry is compared with:
    /// `method`, `url` (without the query), `parameters` (query, then form body; a repeated
    /// name becomes an array), `headers` (lower-cased names; repeated ones joined by `, `),
    /// and `body` (`bodyJSON` when it is JSON, scalars included, otherwise its text).
    public var validationView: JSONValue {
        let (url, parameters) = urlWithoutQueryAndParameters
        var view: [String: JSONValue] = [
            "method": .string(method), "url": .string(url), "parameters": .object(Self.parametersObject(parameters)),
        ]
        var headers: [String: String] = [:]
        for header in self.headers {
            let name = header.name.lowercased()
            headers[name] = headers[name].map { $0 + ", " + header.value } ?? header.value
        }
        view["headers"] = .object(headers.mapValues(JSONValue.string))
        if let text = bodyText, !text.isEmpty {
            view["body"] = bodyJSON ?? .string(text)
        }
        return .object(view)
    }
}
