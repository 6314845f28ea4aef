import Foundation
import Testing
import TracksnapTestSupport
import TracksnapTraffic

/// Protobuf read by a descriptor set a profile names: a `.proto` of the test's own compiled by
/// `protoc` (Debian's `protobuf-compiler`, `make test-tools`), bodies encoded by Python's
/// `protobuf` package from that descriptor set (`make sdk-venv`), recorded from one checkout and
/// validated against another with new ids; a renamed value and a changed enum are one finding
/// each, a body that is not the message is a `decode_error` naming the byte, and a bad
/// descriptor set or an unknown type is an error naming the file and the type.
@Suite(
    "protobuf by a descriptor set: protoc's set, Python's bodies, recorded and validated", .tags(.process),
    .leftToMakeTest)
struct DescriptorProtobufTests {
    static let proto = """
        syntax = "proto3";
        package shop.v1;

        enum Status {
          STATUS_UNSPECIFIED = 0;
          PENDING = 1;
          PAID = 2;
          REFUNDED = 3;
        }

        message Item {
          string sku = 1;
          int32 quantity = 2;
          double price = 3;
        }

        message Checkout {
          string order_id = 1;
          string session_id = 2;
          Status status = 3;
          repeated Item items = 4;
          int64 sent_at_millis = 5;
          map<string, string> labels = 6;
          repeated int32 steps = 7;
          sint32 balance_delta = 8;
          bool returning = 9;
        }
        """

    static let profile = """
        {
          "name": "shop",
          "filter": { "host": "api.shop.example" },
          "protobuf": {
            "descriptors": "../shop.pb",
            "messages": [{ "url": "https://api.shop.example/v1/checkout", "type": "shop.v1.Checkout" }]
          }
        }
        """

    /// One checkout as the app's code builds it (protobuf's JSON mapping); each run has new ids and times.
    static func checkout(
        order: String, session: String, sentAt: Int64, sku: String = "tee", status: String = "PAID"
    ) -> [String: Any] {
        [
            "order_id": order, "session_id": session, "status": status,
            "items": [["sku": sku, "quantity": 2, "price": 12.5], ["sku": "mug", "quantity": 1, "price": 8]],
            "sent_at_millis": String(sentAt), "labels": ["channel": "app", "ab": "b"], "steps": [1, 2, 300],
            "balance_delta": -3, "returning": true,
        ]
    }

    @Test(
        "recorded from one body, another with new ids passes; a renamed value and a changed enum are one finding each")
    func recordAndValidate() throws {
        try withTemporaryDirectory { directory in
            try Self.prepare(in: directory)
            let first = try Self.capture(
                Self.checkout(
                    order: "6f1c2a9e-8b0d-4d3e-9a51-2f7c8e4b1d03", session: "b3e1d2c4-5f6a-4b7c-8d9e-0a1b2c3d4e5f",
                    sentAt: 1_764_000_000_123), named: "first", in: directory, gzip: true)
            let run = try tracksnap(
                "record", "checkout.json", "--capture", first, "--validator", "Validators/shop.json", in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            let recorded = try String(contentsOf: directory.appending(path: "checkout.json"), encoding: .utf8)
            for expected in [
                #""name": "shop.v1.Checkout""#, #""status": "PAID""#, #""sku": "tee""#, #""channel": "app""#,
                #""balance_delta": -3"#, #""vendor": "protobuf""#,
            ] {
                #expect(recorded.contains(expected), "\(expected) is not in the recorded snapshot:\n\(recorded)")
            }
            #expect(!recorded.contains("6f1c2a9e"), "the order id was recorded literally:\n\(recorded)")

            func validate(_ body: [String: Any], _ name: String) throws -> (
                findings: [ValidationReport.Finding], output: String
            ) {
                let capture = try Self.capture(body, named: name, in: directory, gzip: false)
                let run = try tracksnap(
                    "validate", "checkout.json", "--capture", capture, "--validator", "Validators/shop.json",
                    "--format", "json", in: directory)
                #expect(run.status <= 1, "\(run.stderr)")
                let report = try JSONDecoder().decode(ValidationReport.self, from: Data(run.stdout.utf8))
                return (report.snapshots.flatMap(\.findings), run.stdout)
            }
            let other = (
                order: "0d9b7c61-3e2f-4a5b-8c7d-9e0f1a2b3c4d", session: "7a6b5c4d-3e2f-4109-8a7b-6c5d4e3f2a1b",
                sentAt: Int64(1_764_086_400_456)
            )
            let passed = try validate(
                Self.checkout(order: other.order, session: other.session, sentAt: other.sentAt), "second")
            #expect(passed.findings.isEmpty, "\(passed.findings)\n\(recorded)")

            let renamed = try validate(
                Self.checkout(order: other.order, session: other.session, sentAt: other.sentAt, sku: "t-shirt"),
                "renamed"
            ).findings
            #expect(renamed.count == 1, "\(renamed)")
            #expect(renamed.first?.code == "value_mismatch")
            #expect(renamed.first?.path == "/events/0/properties/items/0/sku", "\(renamed)")

            let (refunded, output) = try validate(
                Self.checkout(order: other.order, session: other.session, sentAt: other.sentAt, status: "REFUNDED"),
                "refunded")
            #expect(refunded.count == 1, "\(refunded)")
            #expect(refunded.first?.path == "/events/0/properties/status", "\(refunded)")
            #expect(
                output.contains(#""actual": "REFUNDED""#) || output.contains(#""actual" : "REFUNDED""#), "\(output)")
        }
    }

    @Test("a body that is not the message is a decode_error naming the byte and the field")
    func bodyNotMatching() throws {
        try withTemporaryDirectory { directory in
            try Self.prepare(in: directory)
            let body = try Self.encode(
                Self.checkout(order: "o-1", session: "s-1", sentAt: 1), named: "good", in: directory)
            _ = try tracksnap(
                "record", "checkout.json", "--capture",
                try Self.capture(bytes: body, named: "good", in: directory),
                "--validator", "Validators/shop.json", in: directory)
            // Cut inside the items: the length of field 4 runs past the end.
            let truncated = try Self.capture(bytes: Array(body.prefix(20)), named: "cut", in: directory)
            // Field 1 (order_id, a string) sent as a varint.
            let mistyped = try Self.capture(bytes: [0x08, 0x01], named: "mistyped", in: directory)
            for (capture, expected) in [
                (truncated, "runs past the end"),
                (
                    mistyped,
                    "byte 0: field \"order_id\" (1) of shop.v1.Checkout is a string, but the body has a varint there"
                ),
            ] {
                let run = try tracksnap(
                    "validate", "checkout.json", "--capture", capture, "--validator", "Validators/shop.json",
                    "--format", "json", in: directory)
                #expect(run.status == 1, "\(run.stderr)")
                let findings = try JSONDecoder().decode(ValidationReport.self, from: Data(run.stdout.utf8)).snapshots
                    .flatMap(
                        \.findings)
                let decodeErrors = findings.filter { $0.code == "decode_error" }
                #expect(decodeErrors.count == 1, "\(findings)")
                #expect(
                    decodeErrors.first?.message.contains("protobuf: body is not a shop.v1.Checkout") == true
                        || decodeErrors.first?.message.contains("protobuf: byte") == true, "\(findings)")
                #expect(decodeErrors.first?.message.contains("byte ") == true, "\(findings)")
                #expect(decodeErrors.first?.message.contains(expected) == true, "\(findings)")
            }
        }
    }

    @Test(
        "tracksnap events shows the message by its names; a field the type does not define stays, by its number, and an enum number it does not define stays a number"
    )
    func eventsShowsNames() throws {
        try withTemporaryDirectory { directory in
            try Self.prepare(in: directory)
            var body = try Self.encode(
                Self.checkout(order: "o-1", session: "s-1", sentAt: 1_764_000_000_123, status: "PAID"), named: "body",
                in: directory)
            // Field 15 (not in the .proto) = 42; status (field 3) = 7, which Status does not define: the last wins.
            body += [0x78, 0x2A, 0x18, 0x07]
            let capture = try Self.capture(bytes: body, named: "body", in: directory)
            let run = try tracksnap(
                "events", "--capture", capture, "--validator", "Validators/shop.json", "--format", "json", in: directory
            )
            #expect(run.status == 0, "\(run.stderr)")
            let requests = try #require(
                try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
            let events = try #require(requests.first?["events"] as? [[String: Any]], "\(run.stdout)")
            #expect(events.count == 1 && events.first?["vendor"] as? String == "protobuf", "\(run.stdout)")
            let properties = try #require(events.first?["properties"] as? [String: Any], "\(run.stdout)")
            #expect(properties["order_id"] as? String == "o-1")
            #expect((properties["sent_at_millis"] as? NSNumber)?.int64Value == 1_764_000_000_123, "\(properties)")
            #expect(properties["steps"] as? [Int] == [1, 2, 300], "\(properties)")
            #expect(properties["balance_delta"] as? Int == -3, "\(properties)")
            #expect(properties["labels"] as? [String: String] == ["channel": "app", "ab": "b"], "\(properties)")
            #expect(properties["15"] as? Int == 42, "\(properties)")
            #expect(properties["status"] as? Int == 7, "\(properties)")
        }
    }

    @Test(
        "a file that is no descriptor set, and a type the set does not define, are errors naming them; lint says so too"
    )
    func badDescriptorOrType() throws {
        try withTemporaryDirectory { directory in
            try Self.prepare(in: directory)
            try Self.proto.write(to: directory.appending(path: "shop.proto.txt"), atomically: true, encoding: .utf8)
            try Self.profile.replacingOccurrences(of: "../shop.pb", with: "../shop.proto.txt").write(
                to: directory.appending(path: "Validators/text.json"), atomically: true, encoding: .utf8)
            try Self.profile.replacingOccurrences(of: "shop.v1.Checkout", with: "shop.v1.Chekout").write(
                to: directory.appending(path: "Validators/typo.json"), atomically: true, encoding: .utf8)
            try Self.profile.replacingOccurrences(of: "../shop.pb", with: "../missing.pb").write(
                to: directory.appending(path: "Validators/missing.json"), atomically: true, encoding: .utf8)
            let capture = try Self.capture(bytes: [], named: "empty", in: directory)
            for (profile, expected) in [
                (
                    "text",
                    "../shop.proto.txt is not a descriptor set protoc writes (--descriptor_set_out): it is not protobuf: byte "
                ),
                (
                    "typo",
                    "no message type \"shop.v1.Chekout\" in Validators/../shop.pb (did you mean shop.v1.Checkout?); it defines shop.v1.Checkout, shop.v1.Item"
                ),
                ("missing", "descriptor set Validators/../missing.pb cannot be read: no such file"),
            ] {
                let run = try tracksnap(
                    "validate", "--validator", "Validators/\(profile).json", "--capture", capture, in: directory)
                #expect(run.status == 2, "\(profile): \(run.stdout) \(run.stderr)")
                #expect(run.stderr.contains("Validators/\(profile).json:"), "\(run.stderr)")
                #expect(run.stderr.contains(expected), "\(profile): \(run.stderr)")
                let lint = try tracksnap("lint", "Validators/\(profile).json", in: directory)
                #expect(lint.status != 0, "\(lint.stdout)")
                #expect((lint.stdout + lint.stderr).contains(expected), "\(profile): \(lint.stdout) \(lint.stderr)")
            }
            #expect(try tracksnap("lint", "Validators/shop.json", in: directory).status == 0)
        }
    }

    @Test(
        "under serve --root, a descriptor set is opened through the workspace: one outside the root is refused, naming it"
    )
    func confinedToTheRoot() async throws {
        try await withTemporaryDirectory { outside in
            try Self.prepare(in: outside)
            let root = outside.appending(path: "app")
            try FileManager.default.createDirectory(
                at: root.appending(path: "Validators"), withIntermediateDirectories: true)
            // The profile is under the root; the descriptor set it names is not.
            try Self.profile.replacingOccurrences(of: "../shop.pb", with: "../../shop.pb").write(
                to: root.appending(path: "Validators/shop.json"), atomically: true, encoding: .utf8)
            let server = try await ServeChild.launch(["--root", root.path])
            defer { server.stop() }
            let session = try await server.call("POST", "sessions", as: ServeChild.Session.self).id
            let body = try JSONSerialization.data(withJSONObject: [
                "validator": "Validators/shop.json", "settle": 0,
                "snapshotContent": ["events": [["vendor": "protobuf", "name": "shop.v1.Checkout"]]],
            ])
            do {
                _ = try await server.call("POST", "sessions/\(session)/validate", body: body)
                Issue.record("a descriptor set outside the root was read")
            } catch {
                #expect("\(error)".contains(" 400 "), "\(error)")
                #expect(
                    "\(error)".contains("descriptor set") && "\(error)".contains("shop.pb")
                        && "\(error)".contains("is outside the root"), "\(error)")
            }
        }
    }

    // MARK: - Helpers

    /// `shop.proto` compiled into `shop.pb` by protoc, and the profile in `Validators/`.
    static func prepare(in directory: URL) throws {
        let protoc = URL(fileURLWithPath: "/usr/bin/protoc")
        try #require(
            FileManager.default.isExecutableFile(atPath: protoc.path),
            "protoc is missing: run `make test-tools`, which installs Debian's protobuf-compiler")
        _ = try PackagePaths.sdkPython(for: "Python's protobuf")
        try proto.write(to: directory.appending(path: "shop.proto"), atomically: true, encoding: .utf8)
        let compiled = try runProcess(
            protoc, ["--include_imports", "--descriptor_set_out=shop.pb", "-I.", "shop.proto"], in: directory)
        try #require(compiled.status == 0, "\(compiled.stderr)")
        try FileManager.default.createDirectory(
            at: directory.appending(path: "Validators"), withIntermediateDirectories: true)
        try profile.write(to: directory.appending(path: "Validators/shop.json"), atomically: true, encoding: .utf8)
    }

    /// The message's wire bytes, encoded by Python's protobuf from the descriptor set.
    static func encode(_ message: [String: Any], named name: String, in directory: URL) throws -> [UInt8] {
        let json = directory.appending(path: "\(name).json-message")
        try JSONSerialization.data(withJSONObject: message).write(to: json)
        let out = directory.appending(path: "\(name).bin")
        let script = PackagePaths.root.appending(path: "Tests/TracksnapCLITests/Fixtures/protobuf/encode.py")
        let run = try runProcess(
            PackagePaths.python,
            [script.path, directory.appending(path: "shop.pb").path, "shop.v1.Checkout", json.path, out.path])
        try #require(run.status == 0, "\(run.stderr)")
        return Array(try Data(contentsOf: out))
    }

    /// A capture of one message POSTed to the checkout URL, as the app sends it (gzip'd or not).
    static func capture(_ message: [String: Any], named name: String, in directory: URL, gzip: Bool) throws -> String {
        let bytes = try encode(message, named: name, in: directory)
        return try capture(bytes: gzip ? Array(try gzipped(Data(bytes))) : bytes, named: name, in: directory)
    }

    static func capture(bytes: [UInt8], named name: String, in directory: URL) throws -> String {
        let line: [String: Any] = [
            "id": 1, "time": "2026-11-27T10:00:00Z", "method": "POST", "url": "https://api.shop.example/v1/checkout",
            "headers": [["name": "Content-Type", "value": "application/x-protobuf"]],
            "body": Data(bytes).base64EncodedString(), "bodyEncoding": "base64",
        ]
        let file = "\(name).ndjson"
        try (String(decoding: try JSONSerialization.data(withJSONObject: line), as: UTF8.self) + "\n").write(
            to: directory.appending(path: file), atomically: true, encoding: .utf8)
        return file
    }
}
