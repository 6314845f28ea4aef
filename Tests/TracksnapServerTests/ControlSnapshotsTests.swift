import Foundation
import Testing
import TracksnapJSON
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport

/// One Segment-style event into a session.
private func send(_ port: Int, session: String, event: String) async throws {
    let body = #"{"event": "\#(event)", "revenue": 12.5}"#
    let response = try await RawHTTP.send(
        port: port, method: "POST", target: "/collect", host: "collect.example",
        headers: [("Content-Type", "application/json"), ("X-Tracksnap-Session", session)], body: Array(body.utf8))
    #expect(response.status == 200)
}

/// The listing's item for a snapshot.
private func listed(_ port: Int, _ file: String) async throws -> JSONValue? {
    let response = try await control(port, "GET", "snapshots")
    #expect(response.status == 200, "\(response.text)")
    return try json(response.text)["snapshots"]?.arrayValue?.first { $0["file"]?.stringValue == file }
}

@Suite("The control API reviews pending snapshots", .tags(.network), .leftToMakeTest)
struct ControlSnapshotsTests {
    @Test("record as pending, see the diff, accept; record a change, see it, reject: the files follow each step")
    func reviewLoop() async throws {
        try await withTemporaryDirectory { directory in
            let snapshot = directory.appending(path: "Snapshots/shop/cart.json")
            let pending = directory.appending(path: "Snapshots/shop/cart.new.json")
            try await withServer(.init(root: directory.path)) { _, port in
                let first = try await startSession(port)
                try await send(port, session: first, event: "Cart Viewed")
                let recorded = try await control(
                    port, "POST", "sessions/\(first)/record",
                    body: #"{"snapshot": "Snapshots/shop/cart.json", "pending": true, "settle": 0}"#)
                #expect(recorded.status == 200, "\(recorded.text)")

                let item = try #require(try await listed(port, "Snapshots/shop/cart.json"))
                #expect(item["exists"] == .bool(false))
                #expect(item["pending"]?.stringValue == "Snapshots/shop/cart.new.json")
                let diff = item["diff"]?.stringValue ?? ""
                #expect(diff.hasPrefix("--- (no snapshot yet)\n+++ Snapshots/shop/cart.new.json\n"), "\(diff)")
                #expect(diff.contains("+") && diff.contains("Cart Viewed"), "\(diff)")

                let accepted = try await control(
                    port, "POST", "snapshots/accept", body: #"{"snapshot": "Snapshots/shop/cart.json"}"#)
                #expect(accepted.status == 200, "\(accepted.text)")
                #expect(try json(accepted.text)["decision"]?.stringValue == "accept")
                #expect(!FileManager.default.fileExists(atPath: pending.path))
                let kept = try String(contentsOf: snapshot, encoding: .utf8)
                #expect(kept.contains("Cart Viewed"))
                let after = try #require(try await listed(port, "Snapshots/shop/cart.json"))
                #expect(after["exists"] == .bool(true) && after["pending"] == nil && after["diff"] == nil)

                // A changed flow, recorded as pending: the diff shows the event added; rejected, it is gone.
                let second = try await startSession(port)
                try await send(port, session: second, event: "Cart Viewed")
                try await send(port, session: second, event: "Coupon Applied")
                _ = try await control(
                    port, "POST", "sessions/\(second)/record",
                    body: #"{"snapshot": "Snapshots/shop/cart.json", "pending": true, "settle": 0}"#)
                let changed = try #require(try await listed(port, "Snapshots/shop/cart.json"))
                let lines = (changed["diff"]?.stringValue ?? "").split(separator: "\n")
                #expect(lines.first == "--- Snapshots/shop/cart.json")
                #expect(lines.contains { $0.hasPrefix("+") && $0.contains("Coupon Applied") }, "\(lines)")
                #expect(!lines.contains { $0.hasPrefix("-") && $0.contains("Cart Viewed") }, "\(lines)")
                let rejected = try await control(
                    port, "POST", "snapshots/reject", body: #"{"snapshot": "Snapshots/shop/cart.new.json"}"#)
                #expect(rejected.status == 200, "\(rejected.text)")
                #expect(!FileManager.default.fileExists(atPath: pending.path))
                #expect(try String(contentsOf: snapshot, encoding: .utf8) == kept)

                let again = try await control(
                    port, "POST", "snapshots/accept", body: #"{"snapshot": "Snapshots/shop/cart.json"}"#)
                #expect(again.status == 404, "\(again.text)")
                #expect(again.text.contains("no pending snapshot Snapshots/shop/cart.new.json"))

                // A pending file cut short is not accepted: 409, both files as they were.
                try #"{"requests": ["#.write(to: pending, atomically: true, encoding: .utf8)
                let broken = try await control(
                    port, "POST", "snapshots/accept", body: #"{"snapshot": "Snapshots/shop/cart.json"}"#)
                #expect(broken.status == 409, "\(broken.text)")
                #expect(
                    try json(broken.text)["error"]?.stringValue
                        == "Snapshots/shop/cart.new.json:1:15: error: unexpected end of input; expected a value: the '[' at line 1, column 14 is not closed\n"
                        + "Snapshots/shop/cart.new.json: error: not accepted, since it is no snapshot: Snapshots/shop/cart.json is kept as it is; fix it, or reject it (tracksnap reject Snapshots/shop/cart.json)",
                    "\(broken.text)")
                #expect(try String(contentsOf: snapshot, encoding: .utf8) == kept)
                #expect(try String(contentsOf: pending, encoding: .utf8) == #"{"requests": ["#)
            }
        }
    }

    @Test("a pytest project's snapshots/ is listed beside Snapshots/, each file once, and reviewed as the other")
    func pythonFolder() async throws {
        try await withTemporaryDirectory { directory in
            try write(#"{"events": []}"#, to: directory.appending(path: "snapshots/test_checkout.json"))
            try write(
                #"{"events": [{"name": "x"}]}"#, to: directory.appending(path: "snapshots/test_checkout.new.json"))
            try write(#"{"events": []}"#, to: directory.appending(path: "Snapshots/cart.json"))
            try await withServer(.init(root: directory.path)) { _, port in
                let response = try await control(port, "GET", "snapshots")
                #expect(response.status == 200, "\(response.text)")
                let answer = try json(response.text)
                let files = answer["snapshots"]?.arrayValue?.compactMap { $0["file"]?.stringValue }
                #expect(files == ["Snapshots/cart.json", "snapshots/test_checkout.json"])
                #expect(answer["folder"]?.stringValue == "Snapshots, snapshots")
                let item = try #require(try await listed(port, "snapshots/test_checkout.json"))
                #expect(item["pending"]?.stringValue == "snapshots/test_checkout.new.json")
                let accepted = try await control(
                    port, "POST", "snapshots/accept", body: #"{"snapshot": "snapshots/test_checkout.json"}"#)
                #expect(accepted.status == 200, "\(accepted.text)")
            }
        }
    }

    @Test("listing, accepting and rejecting need the token, and a page on another origin is refused")
    func guarded() async throws {
        try await withTemporaryDirectory { directory in
            let pending = directory.appending(path: "Snapshots/a.new.json")
            try write(#"{"events": []}"#, to: pending)
            try await withServer(.init(token: "s3cret", root: directory.path)) { _, port in
                #expect(try await control(port, "GET", "snapshots").status == 401)
                for decision in ["accept", "reject"] {
                    let body = #"{"snapshot": "Snapshots/a.json"}"#
                    #expect(try await control(port, "POST", "snapshots/\(decision)", body: body).status == 401)
                    let foreign = try await control(
                        port, "POST", "snapshots/\(decision)", body: body,
                        headers: [("Authorization", "Bearer s3cret"), ("Origin", "https://evil.example")])
                    #expect(foreign.status == 403)
                }
                #expect(FileManager.default.fileExists(atPath: pending.path))
                let listed = try await control(port, "GET", "snapshots", headers: [("Authorization", "Bearer s3cret")])
                #expect(listed.status == 200 && listed.text.contains("Snapshots/a.new.json"))
            }
        }
    }

    @Test("accept and reject stay under the root, and a pending file linked out of it is neither read nor moved")
    func confined() async throws {
        try await withTemporaryDirectory { directory in
            let root = directory.appending(path: "root")
            let secret = directory.appending(path: "outside/secret.new.json")
            try write(#"{"events": [{"name": "SECRETWORD"}]}"#, to: secret)
            try write(#"{"events": []}"#, to: root.appending(path: "Snapshots/linked.json"))
            try FileManager.default.createSymbolicLink(
                atPath: root.appending(path: "Snapshots/linked.new.json").path, withDestinationPath: secret.path)
            try await withServer(.init(root: root.path)) { _, port in
                for decision in ["accept", "reject"] {
                    for escape in ["../outside/secret.json", secret.path, "Snapshots/../../outside/secret.json"] {
                        let response = try await control(
                            port, "POST", "snapshots/\(decision)", body: #"{"snapshot": "\#(escape)"}"#)
                        #expect(response.status == 400, "\(escape): \(response.text)")
                        #expect(response.text.contains("is outside the root"), "\(escape): \(response.text)")
                    }
                    let linked = try await control(
                        port, "POST", "snapshots/\(decision)", body: #"{"snapshot": "Snapshots/linked.json"}"#)
                    #expect(linked.status == 400, "\(linked.text)")
                    #expect(linked.text.contains("not a regular file"), "\(linked.text)")
                    let refused = try await control(port, "POST", "snapshots/\(decision)", body: #"{"snapshot": 3}"#)
                    #expect(refused.status == 400, "\(refused.text)")
                }
                let listing = try await control(port, "GET", "snapshots")
                #expect(listing.status == 200)
                #expect(!listing.text.contains("SECRETWORD"), "the linked file was read: \(listing.text)")
            }
            #expect(FileManager.default.fileExists(atPath: secret.path))
            #expect(
                try String(contentsOf: root.appending(path: "Snapshots/linked.json"), encoding: .utf8)
                    == #"{"events": []}"#)
        }
    }
}
