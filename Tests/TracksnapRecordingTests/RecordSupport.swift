import Foundation
import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

/// Records the requests under a profile and writes them to `path`; returns the file's text.
@discardableResult
func record(_ requests: [CapturedRequest], profile: Profile = .builtInDefault, to path: String, existing: Bool = false)
    throws -> String
{
    let recorder = SnapshotRecorder(profile: profile)
    let old = existing ? try JSONDocument.load(path: path) : nil
    try recorder.write(try recorder.snapshot(from: requests, name: "test", existing: old), to: path)
    return try String(contentsOfFile: path, encoding: .utf8)
}

/// Validates a snapshot file against requests under a profile built in code.
func validateFile(_ path: String, _ requests: [CapturedRequest], profile: Profile = .builtInDefault) throws
    -> SnapshotResult
{
    SnapshotValidator().validate(try Snapshot.load(path: path), requests: requests, profile: profile)
}

/// The parsed JSON of a file.
func json(at path: String) throws -> JSONValue {
    try JSONDocument.load(path: path).value
}

/// A POST with a form body.
func form(_ url: String, _ body: String, id: Int = 0) -> CapturedRequest {
    CapturedRequest(
        id: String(id), method: "POST", url: url,
        headers: [.init(name: "Content-Type", value: "application/x-www-form-urlencoded")], body: .text(body))
}

extension JSONValue {
    /// The value at a JSON Pointer.
    func at(_ pointer: String) -> JSONValue? {
        JSONPointer.tokens(pointer).reduce(Optional(self)) { value, token in
            guard let value else { return nil }
            if let index = Int(token), let items = value.arrayValue { return index < items.count ? items[index] : nil }
            return value[token]
        }
    }
}
