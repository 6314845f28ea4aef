import TracksnapCore
import TracksnapModel
import TracksnapValidation

/// A snapshot from JSON text, as if read from `file`.
func snapshot(_ text: String, file: String = "Snapshots/test.json") throws -> Snapshot {
    try Snapshot.parse(Array(text.utf8), file: file)
}

/// A GET request with a query.
func get(_ url: String, id: Int = 0, headers: [String: String] = [:]) -> CapturedRequest {
    CapturedRequest(
        id: String(id), method: "GET", url: url,
        headers: headers.sorted { $0.key < $1.key }.map { .init(name: $0.key, value: $0.value) })
}

/// A POST with a JSON body.
func post(_ url: String, json: String, id: Int = 0) -> CapturedRequest {
    CapturedRequest(
        id: String(id), method: "POST", url: url, headers: [.init(name: "Content-Type", value: "application/json")],
        body: .text(json))
}

/// Validates with a profile built in code (the default unless given).
func validate(_ snapshot: Snapshot, _ requests: [CapturedRequest], profile: Profile = .builtInDefault) -> SnapshotResult
{
    SnapshotValidator().validate(snapshot, requests: requests, profile: profile)
}

/// A snapshot of GET requests to the tracking endpoint, one per `ev` value, in this order.
func screens(_ names: [String], order: String = "strict") throws -> Snapshot {
    let entries = names.map {
        #"{"method": "GET", "url": "https://t.example.com/track", "parameters": {"ev": "\#($0)"}}"#
    }
    return try snapshot(#"{"order": "\#(order)", "requests": [\#(entries.joined(separator: ",\n"))]}"#)
}

/// The captured counterpart of `screens`.
func screenRequests(_ names: [String]) -> [CapturedRequest] {
    names.enumerated().map { get("https://t.example.com/track?ev=\($1)&cb=\($0)", id: $0) }
}

extension SnapshotResult {
    var codes: [FindingCode] { findings.map(\.code) }
}
