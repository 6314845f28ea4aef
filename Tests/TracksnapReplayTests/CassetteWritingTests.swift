import Foundation
import Testing
import TracksnapJSON
import TracksnapReplay
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@Suite("Cassettes are written in tracksnap's own format and read back the same", .tags(.process), .leftToMakeTest)
struct CassetteWritingTests {
    /// Every kind of body and header a cassette holds.
    let cassette = Cassette(
        name: "checkout", format: .tracksnap,
        interactions: [
            Interaction(
                request: .init(
                    method: "POST", url: "https://api.shop.example/v1/cart",
                    headers: [.init(name: "Content-Type", value: "application/json")],
                    body: .json(.object(["sku": .string("A-1"), "price": .number("12.50")]))),
                response: .init(
                    status: 201,
                    headers: [
                        .init(name: "Content-Type", value: "application/json"), .init(name: "Vary", value: "Accept"),
                        .init(name: "Vary", value: "Origin"),
                    ],
                    body: .json(.object(["cart": .string("c-42")])), url: "https://api.shop.example/v1/cart"),
                recordedAt: 1_700_000_000.5),
            Interaction(
                request: .init(method: "GET", url: "https://cdn.shop.example/logo.png"),
                response: .init(
                    status: 200, headers: [.init(name: "Content-Type", value: "image/png")],
                    body: .binary([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF]))),
            Interaction(
                request: .init(method: "PUT", url: "https://api.shop.example/v1/note", body: .text("{not json")),
                response: .init(status: 204)),
        ])

    @Test(
        "write then read gives the same interactions and the same body bytes; the file is sorted and says what each body is"
    )
    func roundTrip() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "Cassettes/checkout.json").path
            try cassette.write(to: path)
            let (read, warnings) = try Cassette.read(path: path)
            #expect(warnings.isEmpty, "\(warnings)")
            #expect(read == cassette)
            #expect(read.interactions[1].response.body?.bytes == [0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])

            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains(#""json": {"#) && text.contains(#""base64": "iVBORwD/""#))
            #expect(
                text.contains(#""text": "{not json""#) && text.contains(#""recordedAt": "2023-11-14T22:13:20.500Z""#))
            #expect(text.contains(#""price": 12.50"#), "numbers keep their text")
            #expect(text.contains(#""Vary": ["#))
            // Written again, byte for byte the same: a re-recording changes only what changed.
            try read.write(to: path)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        }
    }

    @Test("Schemas/cassette.schema.json accepts what the writer writes, and rejects it with a second body")
    func schema() async throws {
        try await withTemporaryDirectory { directory in
            let written = directory.appending(path: "written.json").path
            try cassette.write(to: written)
            let stray = directory.appending(path: "stray.json").path
            try String(contentsOfFile: written, encoding: .utf8)
                .replacingOccurrences(of: #""text": "{not json""#, with: #""text": "{not json", "base64": "YQ==""#)
                .write(toFile: stray, atomically: true, encoding: .utf8)
            let check = PackagePaths.root.appending(path: "Schemas/check.py").path
            let accepted = try await runProcess(PackagePaths.python, [check, "-v", "--cassette", written])
            #expect(
                accepted.status == 0 && accepted.stdout.contains("ok   \(written) is accepted"), "\(accepted.stdout)")
            let rejected = try await runProcess(PackagePaths.python, [check, "--cassette", stray])
            #expect(rejected.status == 1 && rejected.stdout.contains("FAIL \(stray) is accepted"), "\(rejected.stdout)")
        }
    }

    @Test("a DVR cassette written as tracksnap's keeps its interactions")
    func fromDVR() throws {
        let dvr = #"""
            {"name": "n", "interactions": [{"recorded_at": 1700000000.5,
              "request": {"method": "GET", "url": "https://a.example/x", "headers": {}},
              "response": {"url": "https://a.example/x", "status": 200, "headers": {"Content-Type": "text/html"}, "body": "<p>hi</p>"}}]}
            """#
        let (original, _) = try Cassette.read(Array(dvr.utf8), file: "dvr.json")
        let (copy, _) = try Cassette.read(Array(original.json.serialized().utf8), file: "copy.json")
        #expect(copy.format == .tracksnap && original.format == .dvr)
        #expect(copy.interactions == original.interactions)
    }

    @Test("a format this tracksnap does not know, or two bodies at once, is an error at its place")
    func refused() throws {
        for (text, message) in [
            (#"{"cassette": 2, "interactions": []}"#, "c.json:1:14: error: cassette format 2"),
            (
                #"{"cassette": 1, "interactions": [{"request": {"url": "https://a.example/", "text": "a", "base64": "YQ=="}, "response": {"status": 200}}]}"#,
                #"c.json:1:46: error: one body: "text" or "base64""#
            ),
        ] {
            let error = try #require(throws: InputError.self) { try Cassette.read(Array(text.utf8), file: "c.json") }
            #expect(error.description.hasPrefix(message), "\(error)")
        }
    }
}
