#if canImport(Testing)
    public import Testing
    import TracksnapRecording

    /// The Swift Testing trait that configures `assertTracking` for a test or a whole suite.
    ///
    /// ```swift
    /// @Test(.tracksnap(record: .all)) func checkout() async { … }
    /// @Suite(.tracksnap(validatorsDirectory: "Validators")) struct AnalyticsTests { … }
    /// ```
    public struct TracksnapTrait: TestTrait, SuiteTrait, TestScoping {
        public let configuration: TracksnapConfiguration

        public var isRecursive: Bool { true }

        public func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            let merged = TracksnapConfiguration.current.overridden(by: configuration)
            try await TracksnapConfiguration.$current.withValue(merged) {
                try await function()
            }
        }
    }

    extension Trait where Self == TracksnapTrait {
        /// Configures `assertTracking` for a test or suite.
        ///
        /// ```swift
        /// @Test(.tracksnap(record: .failed)) func purchase() async { … }
        /// ```
        /// - Parameters:
        ///   - record: the record mode; nil leaves it to the environment.
        ///   - validatorsDirectory: where profile names are looked up.
        public static func tracksnap(record: RecordMode? = nil, validatorsDirectory: String? = nil) -> Self {
            TracksnapTrait(
                configuration: TracksnapConfiguration(record: record, validatorsDirectory: validatorsDirectory))
        }
    }
#endif
