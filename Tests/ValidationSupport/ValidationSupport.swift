import TracksnapJSON
public import TracksnapSnapshot
public import TracksnapTraffic
public import TracksnapValidation

// What the validation and recording tests share: snapshots, requests and profiles written in
// the test, and validation with a profile built in code.

/// A snapshot from JSON text, as if read from `file`.
public func snapshot(_ text: String, file: String = "Snapshots/test.json") throws -> Snapshot {
    try Snapshot.parse(Array(text.utf8), file: file)
}

/// A GET request with a query.
public func get(_ url: String, id: Int = 0, headers: [String: String] = [:]) -> CapturedRequest {
    CapturedRequest(
        id: String(id), method: "GET", url: url,
        headers: headers.sorted { $0.key < $1.key }.map { .init(name: $0.key, value: $0.value) })
}

/// A POST with a JSON body.
public func post(_ url: String, json: String, id: Int = 0) -> CapturedRequest {
    CapturedRequest(
        id: String(id), method: "POST", url: url, headers: [.init(name: "Content-Type", value: "application/json")],
        body: .text(json))
}

/// Validates with a profile built in code (the default unless given).
public func validate(_ snapshot: Snapshot, _ requests: [CapturedRequest], profile: Profile = .builtInDefault)
    -> SnapshotResult
{
    SnapshotValidator().validate(snapshot, requests: requests, profile: profile)
}

/// A snapshot of GET requests to the tracking endpoint, one per `ev` value, in this order.
public func screens(_ names: [String], order: String = "strict") throws -> Snapshot {
    let entries = names.map {
        #"{"method": "GET", "url": "https://t.example.com/track", "parameters": {"ev": "\#($0)"}}"#
    }
    return try snapshot(#"{"order": "\#(order)", "requests": [\#(entries.joined(separator: ",\n"))]}"#)
}

/// The captured counterpart of `screens`.
public func screenRequests(_ names: [String]) -> [CapturedRequest] {
    names.enumerated().map { get("https://t.example.com/track?ev=\($1)&cb=\($0)", id: $0) }
}

extension SnapshotResult {
    public var codes: [FindingCode] { findings.map(\.code) }
}

/// A profile from JSON text.
public func recordingProfile(_ text: String) throws -> Profile {
    try Profile.parse(document: JSONDocument.parse(Array(text.utf8), file: "Validators/test.json"))
}
