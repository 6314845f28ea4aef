import Foundation
import TracksnapJSON
public import TracksnapTraffic

extension TracksnapClient.Session {
    /// Records requests captured elsewhere into the session, as if the server had received
    /// them (`POST /__tracksnap/sessions/{id}/requests`): what a `CaptureSession` installed
    /// with `reportingTo:` sends for every request it captures.
    ///
    /// ```swift
    /// let copied = try await session.add(try await other.requests())
    /// ```
    /// The server keeps each request's method, URL, headers, body and server origin, and gives
    /// it its own id and time.
    /// - Parameter requests: the requests, in the order they were sent.
    /// - Returns: how many the server recorded.
    /// - Throws: `TracksnapClientError`: an unknown session (404), a server that cannot be reached.
    @discardableResult
    public func add(_ requests: [CapturedRequest]) async throws(TracksnapClientError) -> Int {
        var records: [JSONValue] = []
        for request in requests {
            let line = CaptureFile.ndjsonLine(request)
            do {
                records.append(try JSONDocument.parse(Array(line.utf8), file: "record", trackLocations: false).value)
            } catch {
                // `ndjsonLine` writes JSON; this is here because parsing is throwing.
                throw TracksnapClientError(
                    status: nil, message: "cannot send request \(request.id): \(error.message)", method: "POST",
                    url: client.url(requestsPath).absoluteString)
            }
        }
        let response = try await client.send(.post, requestsPath, body: .array(records))
        return try response.decode(IngestAnswer.self, as: "how many requests were recorded").recorded
    }

    /// The environment variable that names the control API's address for an app's process.
    public static let serverVariable = "TRACKSNAP_SERVER_URL"
    /// The environment variable that names the session an app's process reports to.
    public static let sessionVariable = "TRACKSNAP_SESSION"
    /// The environment variable that carries the server's `--token`, if it has one.
    public static let tokenVariable = "TRACKSNAP_TOKEN"

    /// What an app's process needs to report its traffic into this session: pass it as
    /// `XCUIApplication.launchEnvironment`, or as a child process's environment; the app reads
    /// it back with `init?(environment:)`.
    ///
    /// ```swift
    /// let app = XCUIApplication()
    /// app.launchEnvironment.merge(session.environment) { $1 }
    /// app.launch()
    /// ```
    public var environment: [String: String] {
        var variables = [Self.serverVariable: client.baseURL.absoluteString, Self.sessionVariable: id]
        if let token = client.token { variables[Self.tokenVariable] = token }
        return variables
    }

    /// The session an app's environment names (`TRACKSNAP_SERVER_URL`, `TRACKSNAP_SESSION`,
    /// optionally `TRACKSNAP_TOKEN`, as `environment` writes them); nil when it names none.
    ///
    /// ```swift
    /// // In the app, where its URLSession configuration is made:
    /// if let session = TracksnapClient.Session(environment: ProcessInfo.processInfo.environment) {
    ///     CaptureSession.install(on: configuration, mode: .respond(), reportingTo: session)
    /// }
    /// ```
    /// A session named without a usable server address is nil too, with a line on standard
    /// error saying why: an app under test must not stop for it, and the test then reports
    /// that nothing was captured.
    public init?(environment: [String: String]) {
        guard let id = environment[Self.sessionVariable], !id.isEmpty else { return nil }
        guard let text = environment[Self.serverVariable], let url = URL(string: text),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
        else {
            let value = environment[Self.serverVariable].map { "\"\($0)\"" } ?? "unset"
            FileHandle.standardError.write(
                Data(
                    """
                    tracksnap: \(Self.sessionVariable) is \(id) but \(Self.serverVariable) is \(value), not the server's \
                    http:// address; requests are not reported\n
                    """.utf8))
            return nil
        }
        let token = environment[Self.tokenVariable].flatMap { $0.isEmpty ? nil : $0 }
        self = TracksnapClient(baseURL: url, token: token).session(id: id)
    }
}
