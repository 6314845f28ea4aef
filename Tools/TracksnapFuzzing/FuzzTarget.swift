/// One parser under the fuzzer: what it reads and the properties it must keep on any input.
///
/// A target is a value (a name and a closure), so the fuzzer, the replay command and the
/// regression tests run the same table.
///
/// ```swift
/// try FuzzTarget.named("json")?.run(Array(#"{"a": [1, 2.50]}"#.utf8))
/// ```
package struct FuzzTarget: Sendable {
    /// The name `TRACKSNAP_FUZZ` and `make fuzz` use, also the folder of its regression inputs (`Tests/Fuzz/<name>/`).
    package let name: String
    /// What the target feeds the input to, for `TracksnapFuzz --list` and Documentation/Fuzzing.md.
    package let summary: String
    /// Folders of the repository whose files seed the corpus, relative to the package root.
    package let seeds: [String]
    private let body: @Sendable ([UInt8]) throws(PropertyViolation) -> Void

    package init(
        _ name: String, _ summary: String, seeds: [String] = [],
        _ body: @escaping @Sendable ([UInt8]) throws(PropertyViolation) -> Void
    ) {
        self.name = name
        self.summary = summary
        self.seeds = seeds
        self.body = body
    }

    /// Feeds one input to the parser.
    ///
    /// - Throws: `PropertyViolation` when the parser accepted the input but broke a property
    ///   (a value that does not survive re-serialising, a snapshot that fails its own capture).
    ///   A crash is a crash: the fuzzer's sanitizers report it.
    package func run(_ input: [UInt8]) throws(PropertyViolation) {
        try body(input)
    }

    /// Every target, in the order `make fuzz` runs them.
    package static let all: [FuzzTarget] = [
        .json, .snapshot, .profile, .capture, .record, .form, .content, .decoders, .pattern, .secrets, .server,
        .cassette, .schema, .protobuf, .yamlStream, .cassetteHeaders,
    ]

    /// The target with this name.
    package static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}
