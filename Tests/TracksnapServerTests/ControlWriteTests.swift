import Foundation
import Testing
import TracksnapJSON
import TracksnapServer
import TracksnapTestSupport

/// What a control call may write under the root: `.json` snapshots and `.json`, `.yml` or
/// `.yaml` cassettes, outside dot-folders, and over nothing but a snapshot or a cassette.
@Suite("Control API writes only snapshots and cassettes", .tags(.network), .leftToMakeTest)
struct ControlWriteTests {
    /// A root holding files a tool reads: each must come out of every refused call unchanged.
    static let files = [
        "notes.txt": "my notes\n", ".git/config": "[core]\n\tbare = false\n",
        "package.json": #"{"name": "app", "dependencies": {}}"#, "Cassettes/readme.json": "not a cassette\n",
    ]

    func withRoot(_ body: (URL, Int) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            for (path, text) in Self.files {
                let url = directory.appending(path: path)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
            try await withServer(.init(root: directory.path)) { _, port in try await body(directory, port) }
            for (path, text) in Self.files {
                #expect(
                    try String(contentsOf: directory.appending(path: path), encoding: .utf8) == text, "\(path) changed")
            }
        }
    }

    @Test(
        "a session's cassette that is not .json/.yml/.yaml, in a dot-folder, or over a file that is no cassette: 400",
        arguments: [
            ("notes.txt", "is not a .json, .yml, .yaml file"), (".git/config", "is not a .json"),
            (".git/cassette.json", "leading dot"), ("Cassettes/readme.json", "readme.json"),
        ])
    func cassette(path: String, says: String) async throws {
        try await withRoot { _, port in
            let body = JSONValue.object(["cassette": .string(path), "recordMode": "all"]).serialized()
            let response = try await control(port, "POST", "sessions", body: body)
            #expect(response.status == 400, "\(path): \(response.text)")
            #expect(response.text.contains(says), "\(path): \(response.text)")
        }
    }

    @Test(
        "recording a snapshot that is not .json, in a dot-folder, or over a file that is no snapshot: 400",
        arguments: [
            (".git/config", "is not a .json file"), (".git/snapshot.json", "leading dot"),
            ("notes.txt", "is not a .json file"), ("package.json", "package.json"),
        ])
    func snapshot(path: String, says: String) async throws {
        try await withRoot { _, port in
            let id = try await startSession(port)
            _ = try await RawHTTP.send(port: port, target: "/__tracksnap/s/\(id)/e?ev=view")
            let body = JSONValue.object(["snapshot": .string(path), "validator": "default", "settle": 0]).serialized()
            let response = try await control(port, "POST", "sessions/\(id)/record", body: body)
            #expect(response.status == 400, "\(path): \(response.text)")
            #expect(response.text.contains(says), "\(path): \(response.text)")
        }
    }
}
