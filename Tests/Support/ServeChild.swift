public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `tracksnap serve --port 0` running beside a test as a child process, its standard error kept
/// in a file that is removed with this object.
///
/// ```swift
/// let server = try await ServeChild.launch(["--journal", path])
/// defer { server.stop() }
/// let id = try await server.call("POST", "sessions", as: ServeChild.Session.self).id
/// ```
public final class ServeChild: Sendable {
    /// What `POST sessions` answers, as far as tests read it.
    public struct Session: Decodable, Sendable {
        public var id: String
    }

    public let child: ChildProcess
    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public let base: String
    public let stderrURL: URL

    public var process: Spawned { child.process }

    private init(child: ChildProcess, port: Int, base: String, stderrURL: URL) {
        self.child = child
        self.port = port
        self.base = base
        self.stderrURL = stderrURL
    }

    deinit {
        try? FileManager.default.removeItem(at: stderrURL)
    }

    /// Starts the server in the package's root and reads its first line,
    /// `listening on http://HOST:PORT`.
    ///
    /// - Parameters:
    ///   - options: more of `serve`'s options.
    ///   - environment: its whole environment; the test's own when nil.
    public static func launch(_ options: [String] = [], environment: [String: String]? = nil) async throws
        -> ServeChild
    {
        let stderrURL = FileManager.default.temporaryDirectory.appending(
            path: "tracksnap-serve-\(UUID().uuidString).err")
        let stderr = open(stderrURL.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { close(stderr) }
        let child = try await ChildProcess.launch(
            try PackagePaths.executable.get(), ["serve", "--port", "0"] + options, in: PackagePaths.root,
            environment: environment, standardError: stderr)
        let line = child.firstLine
        guard line.hasPrefix("listening on http://"), let port = line.split(separator: ":").last.flatMap({ Int($0) })
        else {
            child.stop()
            let stderr = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(at: stderrURL)
            throw ServeFailure(description: "tracksnap serve printed \(line.debugDescription) first; stderr: \(stderr)")
        }
        return ServeChild(
            child: child, port: port, base: String(line.dropFirst("listening on ".count)), stderrURL: stderrURL)
    }

    /// A control API call's body, failing on any status but 200 and 201.
    public func call(_ method: String, _ path: String, body: Data? = nil) async throws -> Data {
        guard let url = URL(string: base + "/__tracksnap/" + path) else {
            throw ServeFailure(description: "not a URL: \(base)/__tracksnap/\(path)")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        request.timeoutInterval = 60
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 || status == 201 else {
            throw ServeFailure(description: "\(method) \(path): \(status) \(String(decoding: data, as: UTF8.self))")
        }
        return data
    }

    public func call<T: Decodable>(_ method: String, _ path: String, body: Data? = nil, as type: T.Type) async throws
        -> T
    {
        try JSONDecoder().decode(T.self, from: try await call(method, path, body: body))
    }

    public func signal(_ number: Int32) {
        child.signal(number)
    }

    /// Waits for the server to exit (at most 30 seconds) and returns its status.
    public func waitForExit() async throws -> Int32 {
        try await child.waitForExit()
    }

    public func stop() {
        child.stop()
    }
}

/// A server beside a test, or a client it runs, did not do what the test needs.
public struct ServeFailure: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}
