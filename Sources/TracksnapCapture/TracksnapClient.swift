public import Foundation
import TracksnapJSON
public import TracksnapTraffic

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A client of `tracksnap serve`'s control API, under `/__tracksnap/`, for tests in Swift.
///
/// ```swift
/// let client = TracksnapClient(baseURL: URL(string: "http://127.0.0.1:8181")!)
/// let session = try await client.startSession(name: "checkout")
/// // point the app's analytics at session.baseURL, or send session.header with each request
/// let requests = try await session.waitForRequests(count: 3, timeout: .seconds(10))
/// let report = try await session.validate(snapshot: "Snapshots/checkout.json")
/// _ = try await session.stop()
/// ```
///
/// Every call throws `TracksnapClientError` with the HTTP status and the server's message.
public struct TracksnapClient: Sendable {
    /// The header that attributes a request to a session when several are open.
    public static let sessionHeader = "X-Tracksnap-Session"

    /// The server's address, such as `http://127.0.0.1:8181`; a path prefix is kept.
    public let baseURL: URL
    /// The bearer token the server demands when it was started with `--token`.
    public let token: String?
    let urlSession: URLSession

    /// - Parameters:
    ///   - baseURL: the server's address, as its first line printed it (`listening on …`).
    ///   - token: the server's `--token`, sent as `Authorization: Bearer …`.
    ///   - configuration: the URLSession configuration the client's calls use.
    public init(baseURL: URL, token: String? = nil, configuration: URLSessionConfiguration = .ephemeral) {
        self.baseURL = baseURL
        self.token = token
        self.urlSession = URLSession(configuration: configuration)
    }

    /// The server's counters (`GET /__tracksnap/health`); succeeds only when it is up.
    ///
    /// ```swift
    /// try await client.health().unattributed  // 0: every request captured went to a session
    /// ```
    /// - Throws: `TracksnapClientError` when it answers otherwise, or cannot be reached.
    @discardableResult
    public func health() async throws(TracksnapClientError) -> HealthAnswer {
        try await send(.get, "health").decode(HealthAnswer.self, as: "the server's health")
    }

    /// Starts a capture session (`POST /__tracksnap/sessions`).
    ///
    /// ```swift
    /// let session = try await client.startSession(name: "checkout")
    /// ```
    /// - Parameter name: an optional name the server keeps with the session.
    /// - Throws: `TracksnapClientError`, also when the answer has no `id`.
    public func startSession(name: String? = nil) async throws(TracksnapClientError) -> Session {
        let body: JSONValue? = name.map { .object(["name": .string($0)]) }
        let response = try await send(.post, "sessions", body: body)
        let answer = try response.decode(SessionAnswer.self, as: #"a session (an object with a string "id")"#)
        guard !answer.id.isEmpty else { throw response.error("the answer has an empty \"id\": \(response.text)") }
        return Session(client: self, id: answer.id, name: answer.name ?? name)
    }

    /// The sessions open on the server, oldest first (`GET /__tracksnap/sessions`).
    public func sessions() async throws(TracksnapClientError) -> [Session] {
        try await send(.get, "sessions").decode([SessionAnswer].self, as: "a list of sessions").map {
            Session(client: self, id: $0.id, name: $0.name)
        }
    }

    /// A session already started, by its id (from another process, say).
    public func session(id: String) -> Session {
        Session(client: self, id: id, name: nil)
    }

    /// Everything the server captured, in every session (`GET /__tracksnap/requests`).
    public func requests() async throws(TracksnapClientError) -> [CapturedRequest] {
        try await send(.get, "requests").capturedRequests()
    }

    /// Forgets everything the server captured (`POST /__tracksnap/reset`).
    public func reset() async throws(TracksnapClientError) {
        _ = try await send(.post, "reset")
    }

    // MARK: - Requests

    enum Method: String {
        case get = "GET"
        case post = "POST"
        case delete = "DELETE"
    }

    /// The URL of a control API path: `path` below `/__tracksnap/`, segments already escaped.
    func url(_ path: String, query: [URLQueryItem] = []) -> URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) ?? URLComponents()
        var prefix = components.percentEncodedPath
        while prefix.hasSuffix("/") { prefix.removeLast() }
        components.percentEncodedPath = prefix + "/__tracksnap/" + path
        components.queryItems = query.isEmpty ? nil : query
        return components.url ?? baseURL
    }

    func request(
        _ method: Method, _ path: String, query: [URLQueryItem] = [], body: JSONValue? = nil, timeout: TimeInterval = 30
    ) -> URLRequest {
        var request = URLRequest(url: url(path, query: query), timeoutInterval: timeout)
        request.httpMethod = method.rawValue
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body.serialized().utf8)
        }
        return request
    }

    func send(
        _ method: Method, _ path: String, query: [URLQueryItem] = [], body: JSONValue? = nil, timeout: TimeInterval = 30
    ) async throws(TracksnapClientError) -> Response {
        let request = request(method, path, query: query, body: body, timeout: timeout)
        let url = request.url?.absoluteString ?? path
        let data: Data
        let head: URLResponse
        do {
            (data, head) = try await urlSession.data(for: request)
        } catch {
            throw TracksnapClientError(
                status: nil, message: error.localizedDescription, method: method.rawValue, url: url)
        }
        guard let http = head as? HTTPURLResponse else {
            throw TracksnapClientError(status: nil, message: "not an HTTP response", method: method.rawValue, url: url)
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String { headers[name.lowercased()] = "\(value)" }
        }
        let response = Response(
            method: method.rawValue, url: url, status: http.statusCode, body: data, headers: headers)
        guard (200..<300).contains(http.statusCode) else { throw response.error(response.serverMessage) }
        return response
    }

    /// A control API answer, and how to read it.
    struct Response {
        let method: String
        let url: String
        let status: Int
        let body: Data
        /// The answer's headers, by lowercased name.
        var headers: [String: String] = [:]

        /// A header's value, by any case of its name.
        func header(_ name: String) -> String? {
            headers[name.lowercased()]
        }

        var text: String { String(decoding: body, as: UTF8.self) }

        func error(_ message: String) -> TracksnapClientError {
            TracksnapClientError(status: status, message: message, method: method, url: url)
        }

        func json() throws(TracksnapClientError) -> JSONValue {
            do {
                return try JSONDocument.parse(body, file: "response", trackLocations: false).value
            } catch {
                throw self.error("the answer is not JSON (\(error.message)): \(text.prefix(200))")
            }
        }

        /// The answer as one of the control API's answers (`RecordAnswer`, `HealthAnswer`…).
        /// - Parameter what: what the answer should be, for the error (`a recording`).
        func decode<Answer: Decodable>(_ type: Answer.Type, as what: String) throws(TracksnapClientError) -> Answer {
            do {
                let document = try JSONDocument.parse(body, file: "response", trackLocations: false)
                return try JSONValueCoder.decode(type, from: document)
            } catch {
                throw self.error("the answer is not \(what) (\(error.message)): \(text.prefix(200))")
            }
        }

        /// The message of an error answer: tracksnap's `{"error": "…"}` (`ErrorAnswer`); from
        /// something else in front of it, `{"message": "…"}` or `{"error": {"message": "…"}}`;
        /// else the body's text, else the status's phrase.
        var serverMessage: String {
            if let answer = try? decode(ErrorAnswer.self, as: "an error") { return answer.error }
            if let value = try? JSONDocument.parse(body, file: "response", trackLocations: false).value {
                if let message = value["error"]?["message"]?.stringValue ?? value["message"]?.stringValue {
                    return message
                }
            }
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty
                ? HTTPURLResponse.localizedString(forStatusCode: status) : String(trimmed.prefix(500))
        }

        /// A JSON array of captured requests, each in the NDJSON line's shape.
        ///
        /// The elements are written back as NDJSON lines and read by `CaptureFile`, so that
        /// the server's arrays and capture files obey the same rules.
        func capturedRequests() throws(TracksnapClientError) -> [CapturedRequest] {
            guard let items = try json().arrayValue else {
                throw error("expected a JSON array of captured requests: \(text.prefix(200))")
            }
            if items.isEmpty { return [] }
            let lines = items.map { $0.serialized() }.joined(separator: "\n")
            do {
                return try CaptureFile.read(data: Data(lines.utf8), file: "response")
            } catch {
                // Line N of the joined text is element N - 1 of the array.
                let element = error.line.map { "[\($0 - 1)]" } ?? ""
                let place = error.place.map { ".\($0)" } ?? ""
                throw self.error("captured request\(element)\(place): \(error.message)")
            }
        }
    }
}
