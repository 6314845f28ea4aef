/// Reads capture files: HAR 1.2 and tracksnap's NDJSON.
///
/// SKELETON: the real readers replace this file.
public enum CaptureFile {
    /// Reads a capture file, telling HAR from NDJSON by its contents (a HAR file is one JSON
    /// object with a `log` member; NDJSON has one request object per line).
    /// - Throws: `CaptureFileError` naming the file and, where it applies, the line or entry.
    public static func read(path: String) throws(CaptureFileError) -> [CapturedRequest] {
        throw CaptureFileError(file: path, message: "not implemented")
    }
}

public struct CaptureFileError: Error, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let message: String
    public init(file: String, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }
    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}
