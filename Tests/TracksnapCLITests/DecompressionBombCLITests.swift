import Foundation
import Testing
import TracksnapTestSupport

@Suite("A decompression bomb in a capture file", .tags(.process), .leftToMakeTest)
struct DecompressionBombCLITests {
    @Test("validate --capture names the line and the limit, exits 2, and holds far less than the bomb in memory")
    func captureFileBomb() async throws {
        try await withTemporaryDirectory { directory in
            // 160 MiB of zeros, gzip in gzip, in base64: about 1 KiB on the line.
            let bomb = Data(try await compressedZeros(160 << 20, layers: 2)).base64EncodedString()
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
            let (status, peak) = try await runMeasured(executable, arguments, stderr: stderr)
            #expect(status == 2)
            let message = String(decoding: try Data(contentsOf: stderr), as: UTF8.self)
            #expect(
                message.contains(
                    "\(capture.path):2:1: error: body: inflates beyond the limit of 64 MiB (every gzip layer inside it counted)"
                ),
                "\(message)")
            // Inflated, the bomb alone would take 160 MiB; the budget stops it at 64 MiB.
            #expect(peak < 128 << 20, "tracksnap held \(peak) bytes at its peak")
        }
    }
}

/// Runs a program to its end and returns its exit status and the most memory it held at once.
///
/// Python starts it and reads `ru_maxrss` of its children: a child started straight from the test
/// process would report the test process's own peak, which Linux carries over to it at `exec`.
private func runMeasured(_ executable: URL, _ arguments: [String], stderr: URL) async throws -> (
    status: Int32, peakBytes: Int
) {
    let script = """
        import resource, subprocess, sys
        with open(sys.argv[1], "wb") as err:
            code = subprocess.run(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err).returncode
        print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        """
    let result = try await runProcess(
        URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, stderr.path, executable.path] + arguments)
    let fields = result.stdout.split(separator: " ").compactMap {
        Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    guard result.status == 0, fields.count == 2 else { throw MeasureFailure(output: result.stdout + result.stderr) }
    return (Int32(fields[0]), fields[1] * 1024)
}

/// The measuring script did not report a status and a peak.
private struct MeasureFailure: Error {
    let output: String
}
