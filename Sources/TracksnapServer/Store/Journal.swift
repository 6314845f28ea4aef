import Foundation
import Synchronization
import TracksnapCore
import TracksnapModel
import TracksnapValidation

/// The `--journal` file: every captured request appended as an NDJSON line when it arrives, its
/// secrets hidden as the control API hides them (`Redactor`), unless it keeps them (`serve
/// --journal-raw`).
///
/// Each line goes to the kernel with `write(2)` at once (no user-space buffer), so a test
/// process that dies, or a server killed without warning, loses nothing already answered.
/// The journal owns its descriptor: `close()` or, failing that, `deinit` closes it. Writes take
/// the journal's own lock, not the store's, so that a slow disk never holds up the store.
///
/// ```swift
/// let journal = try Journal(path: "capture.ndjson", keepsSecrets: false)
/// journal.append(request)
/// journal.close()
/// ```
final class Journal: Sendable {
    private struct State {
        var descriptor: Int32
        var failed = false
    }

    let path: String
    /// Whether lines are written as captured, secrets and all.
    let keepsSecrets: Bool
    private let state: Mutex<State>

    /// - Parameters:
    ///   - path: the file, created if need be and appended to.
    ///   - keepsSecrets: write each request as captured; otherwise as the control API answers
    ///     it, with its credentials (`Authorization`, write keys, tokens) `[redacted]`.
    /// - Throws: `CaptureServerError` when the file cannot be opened for appending.
    init(path: String, keepsSecrets: Bool) throws(CaptureServerError) {
        self.path = path
        self.keepsSecrets = keepsSecrets
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CaptureServerError("\(path): cannot open the journal: \(String(cString: strerror(errno)))")
        }
        state = Mutex(State(descriptor: descriptor))
    }

    deinit {
        close()
    }

    /// Appends one request as a line; a write error is reported once on stderr, and capturing
    /// in memory goes on.
    func append(_ request: CapturedRequest) {
        // Redacted as one request of the control API's answers: what the journal holds is what
        // `GET sessions/{id}/requests?format=ndjson` would answer, and reads back the same way.
        let line = keepsSecrets ? request : Redactor(requests: [request]).redact(request)
        var bytes = Array(CaptureFile.ndjsonLine(line).utf8)
        bytes.append(UInt8(ascii: "\n"))
        let failure = state.withLock { state -> String? in
            guard state.descriptor >= 0, !state.failed else { return nil }
            var written = 0
            while written < bytes.count {
                let result = bytes.withUnsafeBytes { buffer in
                    write(state.descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
                }
                if result < 0 {
                    if errno == EINTR { continue }
                    state.failed = true
                    return String(cString: strerror(errno))
                }
                written += result
            }
            return nil
        }
        if let failure {
            FileHandle.standardError.write(Data("tracksnap: \(path): cannot write to the journal: \(failure)\n".utf8))
        }
    }

    /// Flushes the file to disk and closes it; later appends are ignored.
    func close() {
        state.withLock { state in
            guard state.descriptor >= 0 else { return }
            _ = fsync(state.descriptor)
            _ = Foundation.close(state.descriptor)
            state.descriptor = -1
        }
    }
}
