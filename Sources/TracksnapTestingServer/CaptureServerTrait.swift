#if canImport(Testing)
    public import Testing
    import TracksnapServer

    /// The Swift Testing trait that runs each test with a capture server of its own, as
    /// `withCaptureServer` does; the test reads it from `ScopedCaptureServer.current`.
    ///
    /// ```swift
    /// @Test(.captureServer()) func checkout() async throws {
    ///     let server = try #require(ScopedCaptureServer.current)
    ///     let session = try await server.startSession()
    /// }
    /// @Suite(.captureServer()) struct AppTrackingTests { … }  // a server for each test
    /// ```
    public struct CaptureServerTrait: TestTrait, SuiteTrait, TestScoping {
        public let configuration: CaptureServer.Configuration

        /// On a suite, each of its tests gets its own server: tests running in parallel never share
        /// one, and a session id never leaks from one test into another.
        public var isRecursive: Bool { true }

        public func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            // A suite's scope is its tests'; only a test (or one of its cases) gets a server.
            guard !test.isSuite else { return try await function() }
            try await withCaptureServer(configuration) { server in
                try await ScopedCaptureServer.$current.withValue(server) { try await function() }
            }
        }
    }

    extension Trait where Self == CaptureServerTrait {
        /// Runs each test with a capture server of its own on a free port of 127.0.0.1.
        ///
        /// ```swift
        /// @Test(.captureServer(.init(root: "Fixtures"))) func purchase() async throws { … }
        /// ```
        /// - Parameter configuration: how the server listens, answers and records.
        public static func captureServer(_ configuration: CaptureServer.Configuration = CaptureServer.Configuration())
            -> Self
        {
            CaptureServerTrait(configuration: configuration)
        }
    }
#endif
