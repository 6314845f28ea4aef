import Foundation
import Synchronization
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

/// The `--journal` file: every captured request appended as an NDJSON line when it arrives, its
/// secrets hidden as the control API hides them (`Redactor`), unless it keeps them (`serve
/// --journal-raw`).
///
/// The file is the user's own and private: created `0600` whatever the umask, never opened
/// through a symbolic link (a link planted in a shared folder would have the journal append to
/// any file its user can write), and an existing one must be a regular file owned by the
/// effective user; otherwise the server does not start, the path named.
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
    /// - Throws: `CaptureServerError` naming the path when the file cannot be opened for
    ///   appending, is a symbolic link, is not a regular file, or belongs to another user.
    init(path: String, keepsSecrets: Bool) throws(CaptureServerError) {
        self.path = path
        self.keepsSecrets = keepsSecrets
        state = Mutex(State(descriptor: try Self.open(path)))
    }

    /// Opens the journal for appending, as the type's comment says. `O_NONBLOCK` keeps a FIFO
    /// planted at the path from blocking the open; it is refused as not a regular file.
    private static func open(_ path: String) throws(CaptureServerError) -> Int32 {
        let descriptor = Foundation.open(
            path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            var link = stat()
            if lstat(path, &link) == 0 {
                if (link.st_mode & S_IFMT) == S_IFLNK {
                    throw CaptureServerError(
                        "\(path): the journal is a symbolic link; tracksnap writes only to a file of its own, not through a link: name the file itself"
                    )
                }
                if (link.st_mode & S_IFMT) != S_IFREG {
                    throw CaptureServerError("\(path): the journal is not a regular file")
                }
            }
            throw CaptureServerError("\(path): cannot open the journal: \(reason)")
        }
        var status = stat()
        let problem: String?
        if fstat(descriptor, &status) != 0 {
            problem = "cannot read its status: \(String(cString: strerror(errno)))"
        } else if (status.st_mode & S_IFMT) != S_IFREG {
            problem = "the journal is not a regular file"
        } else if status.st_uid != geteuid() {
            problem =
                "the journal belongs to another user (uid \(status.st_uid)); tracksnap appends only to a file of its own user (uid \(geteuid()))"
        } else if fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK) != 0 {
            problem = "cannot open the journal: \(String(cString: strerror(errno)))"
        } else {
            problem = nil
        }
        if let problem {
            _ = Foundation.close(descriptor)
            throw CaptureServerError("\(path): \(problem)")
        }
        return descriptor
    }

    deinit {
        close()
    }

    /// Appends one request as a line, its secrets hidden by `redactor` unless the journal keeps
    /// them; a write error is reported once on stderr, and capturing in memory goes on.
    func append(_ request: CapturedRequest, redactedBy redactor: Redactor) {
        // Redacted as the control API's answers are: what the journal holds is what
        // `GET sessions/{id}/requests?format=ndjson` would answer, and reads back the same way.
        let line = keepsSecrets ? request : redactor.redact(request)
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
