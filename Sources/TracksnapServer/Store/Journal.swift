import Foundation
import TracksnapCore

/// The `--journal` file: every captured request appended as an NDJSON line when it arrives.
///
/// Each line goes to the kernel with `write(2)` at once (no user-space buffer), so a test
/// process that dies, or a server killed without warning, loses nothing already answered.
///
/// ```swift
/// var journal = try Journal(path: "capture.ndjson")
/// journal.append(request)
/// journal.close()
/// ```
struct Journal: Sendable {
    let path: String
    private var descriptor: Int32
    private var failed = false

    /// - Throws: `CaptureServerError` when the file cannot be opened for appending.
    init(path: String) throws(CaptureServerError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CaptureServerError("\(path): cannot open the journal: \(String(cString: strerror(errno)))")
        }
    }

    /// Appends one request as a line; a write error is reported once on stderr, and capturing
    /// in memory goes on.
    mutating func append(_ request: CapturedRequest) {
        guard descriptor >= 0, !failed else { return }
        var bytes = Array(CaptureFile.ndjsonLine(request).utf8)
        bytes.append(UInt8(ascii: "\n"))
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                failed = true
                let message = "tracksnap: \(path): cannot write to the journal: \(String(cString: strerror(errno)))\n"
                FileHandle.standardError.write(Data(message.utf8))
                return
            }
            written += result
        }
    }

    mutating func close() {
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = Foundation.close(descriptor)
        descriptor = -1
    }
}
