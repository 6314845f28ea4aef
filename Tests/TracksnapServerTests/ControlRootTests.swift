import Foundation
import Testing
import TracksnapJSON
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

/// A root with a snapshot in it, and beside it a directory the control API must never reach:
/// a file whose first word would show in a parse error, and a FIFO that would hang whoever
/// opened it.
private struct Layout {
    let root: URL
    let outside: URL

    static let secret = "SECRETWORD"

    init(_ directory: URL) throws {
        root = directory.appending(path: "root")
        outside = directory.appending(path: "outside")
        try write(#"{"requests": []}"#, to: root.appending(path: "Snapshots/empty.json"))
        try write("\(Self.secret) is not JSON", to: outside.appending(path: "secret.json"))
        #expect(mkfifo(outside.appending(path: "fifo.json").path, 0o600) == 0)
        try FileManager.default.createSymbolicLink(
            atPath: root.appending(path: "link.json").path,
            withDestinationPath: outside.appending(path: "secret.json").path)
        try FileManager.default.createSymbolicLink(
            atPath: root.appending(path: "out").path, withDestinationPath: outside.path)
    }

    /// The ways out of the root: `..`, an absolute path, a symlinked file, a symlinked
    /// directory, a FIFO (opening it would hang: the answer proves it was not opened).
    var escapes: [String] {
        [
            "../outside/secret.json", "Snapshots/../../outside/secret.json",
            outside.appending(path: "secret.json").path,
            "link.json", "out/secret.json", outside.appending(path: "fifo.json").path, "out/fifo.json",
            "missing/../../outside/new.json",
        ]
    }
}

@Suite("Control API paths stay under the root", .tags(.network), .leftToMakeTest)
struct ControlRootTests {
    @Test(
        "a snapshot path outside the root is refused with 400, naming the root, without reading the file",
        arguments: ["validate", "record"])
    func snapshotOutside(call: String) async throws {
        try await withTemporaryDirectory { directory in
            let layout = try Layout(directory)
            try await withServer(.init(root: layout.root.path)) { _, port in
                let id = try await startSession(port)
                _ = try await RawHTTP.send(port: port, target: "/e?ev=1")
                for escape in layout.escapes {
                    let body = JSONValue.object(["snapshot": .string(escape)]).serialized()
                    let response = try await control(port, "POST", "sessions/\(id)/\(call)", body: body)
                    #expect(response.status == 400, "\(escape): \(response.text)")
                    let message = try #require(try json(response.text)["error"]?.stringValue, "\(escape)")
                    #expect(message.contains("is outside the root"), "\(escape): \(message)")
                    #expect(message.contains(escape), "the message names the path: \(message)")
                    #expect(!response.text.contains(Layout.secret), "\(escape) was read: \(message)")
                }
                #expect(!FileManager.default.fileExists(atPath: layout.outside.appending(path: "new.json").path))
                #expect(
                    try String(contentsOf: layout.outside.appending(path: "secret.json"), encoding: .utf8).hasPrefix(
                        Layout.secret))
            }
        }
    }

    @Test("a tracking plan path outside the root is refused with 400, naming the root, without reading the file")
    func planOutside() async throws {
        try await withTemporaryDirectory { directory in
            let layout = try Layout(directory)
            try await withServer(.init(root: layout.root.path)) { _, port in
                let id = try await startSession(port)
                for escape in layout.escapes {
                    for plan: JSONValue in [.string(escape), .array([.string(escape)])] {
                        let body = JSONValue.object(["plan": plan, "settle": 0]).serialized()
                        let response = try await control(port, "POST", "sessions/\(id)/validate", body: body)
                        #expect(response.status == 400, "\(escape): \(response.text)")
                        let message = try json(response.text)["error"]?.stringValue ?? ""
                        #expect(message.contains("is outside the root"), "\(escape): \(message)")
                        #expect(!response.text.contains(Layout.secret), "\(escape) was read: \(message)")
                    }
                }
            }
        }
    }

    @Test("a validator path outside the root is refused with 400 without reading the file")
    func validatorOutside() async throws {
        try await withTemporaryDirectory { directory in
            let layout = try Layout(directory)
            try await withServer(.init(root: layout.root.path)) { _, port in
                let id = try await startSession(port)
                for escape in layout.escapes {
                    let body = JSONValue.object([
                        "snapshot": .string("Snapshots/empty.json"), "validator": .string("segment," + escape),
                    ])
                    .serialized()
                    let response = try await control(port, "POST", "sessions/\(id)/validate", body: body)
                    #expect(response.status == 400, "\(escape): \(response.text)")
                    #expect(response.text.contains("is outside the root"), "\(escape): \(response.text)")
                    #expect(!response.text.contains(Layout.secret))
                }
            }
        }
    }

    @Test(
        "the stream's ?profile= outside the root is refused with 400 naming it, as validate refuses it, without reading the file"
    )
    func streamProfileOutside() async throws {
        try await withTemporaryDirectory { directory in
            let layout = try Layout(directory)
            try await withServer(.init(root: layout.root.path)) { _, port in
                for escape in layout.escapes {
                    let encoded = try #require(escape.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
                    let response = try await control(port, "GET", "requests/stream?profile=\(encoded)")
                    #expect(response.status == 400, "\(escape): \(response.text)")
                    let message = try json(response.text)["error"]?.stringValue ?? ""
                    #expect(message.hasPrefix("query parameter profile=\"\(escape)\": "), "\(escape): \(message)")
                    #expect(message.contains("is outside the root"), "\(escape): \(message)")
                    #expect(!response.text.contains(Layout.secret), "\(escape) was read: \(message)")
                }
            }
        }
    }

    @Test("a snapshot whose own validator names a file outside the root is refused")
    func snapshotValidatorOutside() async throws {
        try await withTemporaryDirectory { directory in
            let layout = try Layout(directory)
            try write(
                #"{"validator": "../outside/secret.json", "requests": []}"#,
                to: layout.root.appending(path: "Snapshots/sneaky.json"))
            try await withServer(.init(root: layout.root.path)) { _, port in
                let id = try await startSession(port)
                let response = try await control(
                    port, "POST", "sessions/\(id)/validate", body: #"{"snapshot": "Snapshots/sneaky.json"}"#)
                #expect(response.status == 400)
                #expect(response.text.contains("outside the root"))
                #expect(!response.text.contains(Layout.secret))
            }
        }
    }

    @Test(
        "recording in mode failed checks the snapshot with the profile's plans under the root: a plan outside it is refused, and not read"
    )
    func recordFailedPlanOutside() async throws {
        try await withTemporaryDirectory { directory in
            let layout = try Layout(directory)
            try write(
                #"{"plan": "../../outside/secret.json"}"#, to: layout.root.appending(path: "Validators/planned.json"))
            try await withServer(.init(validatorsDirectory: layout.root.path, root: layout.root.path)) { _, port in
                let id = try await startSession(port)
                #expect(try await RawHTTP.send(port: port, target: "/e?ev=screen_view").status == 200)
                let body =
                    #"{"snapshot": "Snapshots/empty.json", "validator": "Validators/planned.json", "mode": "failed", "settle": 0}"#
                let response = try await control(port, "POST", "sessions/\(id)/record", body: body)
                #expect(response.status == 400, "\(response.text)")
                #expect(response.text.contains("is outside the root"), "\(response.text)")
                #expect(!response.text.contains(Layout.secret))
            }
        }
    }

    @Test("a profile under the root that extends a file outside it is refused, and that file is not read")
    func extendsOutside() async throws {
        try await withTemporaryDirectory { directory in
            let layout = try Layout(directory)
            let secret = layout.outside.appending(path: "secret.json").path
            try write(#"{"extends": "\#(secret)"}"#, to: layout.root.appending(path: "Validators/sneaky.json"))
            try write(
                #"{"extends": "Validators/sneaky.json"}"#, to: layout.root.appending(path: "Validators/outer.json"))
            try await withServer(.init(validatorsDirectory: layout.root.path, root: layout.root.path)) { _, port in
                let id = try await startSession(port)
                for validator in ["Validators/sneaky.json", "Validators/outer.json"] {
                    let body = #"{"snapshot": "Snapshots/empty.json", "validator": "\#(validator)"}"#
                    let response = try await control(port, "POST", "sessions/\(id)/validate", body: body)
                    #expect(response.status == 400, "\(validator): \(response.text)")
                    #expect(response.text.contains("is outside the root"), "\(validator): \(response.text)")
                    #expect(!response.text.contains(Layout.secret))
                }
            }
        }
    }

    @Test("paths under the root are resolved against it, whatever the working directory")
    func relativeToRoot() async throws {
        try await withTemporaryDirectory { directory in
            let layout = try Layout(directory)
            try await withServer(.init(root: layout.root.path)) { _, port in
                let id = try await startSession(port)
                for path in [
                    "Snapshots/empty.json", "./Snapshots/../Snapshots/empty.json",
                    layout.root.appending(path: "Snapshots/empty.json").path,
                ] {
                    let response = try await control(
                        port, "POST", "sessions/\(id)/validate", body: #"{"snapshot": "\#(path)"}"#)
                    #expect(response.status == 200, "\(path): \(response.text)")
                    #expect(try json(response.text)["passed"] == .bool(true))
                }
            }
        }
    }

    @Test("the field that listed any directory's profiles is gone: it is an unknown field")
    func noValidatorsDirectoryField() async throws {
        try await withTemporaryDirectory { directory in
            let layout = try Layout(directory)
            try await withServer(.init(root: layout.root.path)) { _, port in
                let id = try await startSession(port)
                let body =
                    #"{"snapshot": "Snapshots/empty.json", "validator": "nope", "validatorsDirectory": "\#(layout.outside.path)"}"#
                let response = try await control(port, "POST", "sessions/\(id)/validate", body: body)
                #expect(response.status == 400)
                let message = try #require(try json(response.text)["error"]?.stringValue)
                #expect(message.contains("unknown field \"validatorsDirectory\""))
                #expect(!message.contains("secret"), "the outside directory's files are not listed: \(message)")
            }
        }
    }
}
