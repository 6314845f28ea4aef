import Foundation
import TracksnapDecoders
import TracksnapSnapshot
import TracksnapTraffic

/// The recorded captures next to these tests (see `Fixtures/*.py` for how each was made).
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures")

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The requests of a fixture.
    static func requests(_ name: String) throws -> [CapturedRequest] {
        try CaptureFile.read(path: path(name))
    }

    /// The events every request of a fixture decodes to, with all built-in decoders.
    static func events(_ name: String) throws -> [AnalyticsEvent] {
        try requests(name).flatMap { Decoders.decode($0).events }
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }

    /// Every NDJSON fixture in the folder.
    static var all: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".ndjson") }.sorted()
    }
}
