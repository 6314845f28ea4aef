import Foundation
import Testing
import TracksnapTestSupport

@Suite("A decompression bomb in a capture file")
struct DecompressionBombCLITests {
    @Test("validate --capture names the line and the limit, exits 2, and holds far less than the bomb in memory")
    func captureFileBomb() async throws {
        try await withTemporaryDirectory { directory in
            // 256 MiB of zeros, gzip in gzip, in base64: about 1 KiB on the line.
            let bomb = Data(try compressedZeros(256 << 20, layers: 2)).base64EncodedString()
            let capture = directory.appending(path: "capture.ndjson")
            let lines = [
                #"{"method":"GET","url":"https://t.example/ok"}"#,
                #"{"method":"POST","url":"https://api.segment.io/v1/batch","body":"\#(bomb)","bodyEncoding":"base64"}"#,
            ]
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: capture)
            let stderr = directory.appending(path: "stderr")
            let executable = try PackagePaths.executable.get()
            let snapshot = PackagePaths.root.appending(path: "Snapshots/examples/segment.json").path
            let arguments = ["validate", snapshot, "--capture", capture.path]
            let (status, peak) = try await offloaded { try runMeasured(executable, arguments, stderr: stderr) }
            #expect(status == 2)
            let message = String(decoding: try Data(contentsOf: stderr), as: UTF8.self)
            #expect(message.contains("\(capture.path):2: body: inflates beyond the limit of 64 MiB (every gzip layer inside it counted)"), "\(message)")
            // Inflated, the bomb alone would take 256 MiB; the budget stops it at 64 MiB.
            #expect(peak < 192 << 20, "tracksnap held \(peak) bytes at its peak")
        }
    }
}

/// `posix_spawn` failed with this error number.
private struct SpawnFailure: Error {
    let code: Int32
}

/// Runs a program to its end and returns its exit status and the most
/// memory it held at once (`ru_maxrss` of this child alone, from `wait4`).
private func runMeasured(_ executable: URL, _ arguments: [String], stderr: URL) throws -> (status: Int32, peakBytes: Int) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, stderr.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable.path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, environ)
    guard spawned == 0 else { throw SpawnFailure(code: spawned) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS, which Swift does not import.
    let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
    return (exitStatus, usage.ru_maxrss * 1024)
}
