import Foundation
import Synchronization
import Testing
import TracksnapJSON
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@Suite(
    "Decompression bombs: every layer of a request within --max-body-size", .tags(.process, .network), .leftToMakeTest)
struct DecompressionBombTests {
    /// The server's limit in these tests, and the bombs' size: 12 MiB of zeros, 12 times the
    /// limit, and under the 64 MiB that a single layer was once allowed to inflate to.
    private static let limit = 1 << 20
    private static let zeros = 12 << 20
    private static let refusal = "the body inflates beyond the limit of 1048576 bytes"

    /// A bomb as curl sends it: the file with the body, and curl's header arguments.
    struct Bomb: Sendable, CustomTestStringConvertible {
        let name: String
        let body: [UInt8]
        let headers: [String]
        var testDescription: String { name }

        static func all() async throws -> [Bomb] {
            let base64 = Data(try await compressedZeros(zeros)).base64EncodedString()
            return [
                Bomb(
                    name: "gzip in gzip", body: try await compressedZeros(zeros, layers: 2),
                    headers: ["Content-Encoding: gzip"]),
                Bomb(
                    name: "gzip, gzip", body: try await compressedZeros(zeros, layers: 2),
                    headers: ["Content-Encoding: gzip, gzip"]),
                Bomb(
                    name: "deflate", body: try await compressedZeros(zeros, wrapper: .zlib),
                    headers: ["Content-Encoding: deflate"]),
                Bomb(
                    name: "gzip in base64 in a form field",
                    body: Array("ip=1&data=\(FormEncoding.encode(base64))".utf8),
                    headers: ["Content-Type: application/x-www-form-urlencoded"]),
            ]
        }
    }

    @Test(
        "a bomb gets 413 naming the limit, and is recorded as refused without its body, counted and logged",
        arguments: try await Bomb.all())
    func refused(bomb: Bomb) async throws {
        try await withTemporaryDirectory { directory in
            let journal = directory.appending(path: "journal.ndjson")
            let file = directory.appending(path: "bomb")
            try Data(bomb.body).write(to: file)
            let lines = Mutex<[String]>([])
            let configuration = CaptureServer.Configuration(
                journalPath: journal.path, maximumBodySize: Self.limit,
                requestLog: { line in lines.withLock { $0.append(line.description) } })
            try await withServer(configuration) { server, port in
                let url = "http://127.0.0.1:\(port)/v1/batch"
                let answer = try await run(
                    "/usr/bin/env",
                    [
                        "curl", "--silent", "--show-error", "--data-binary", "@\(file.path)", "--write-out",
                        "\n%{http_code}", url,
                    ]
                        + bomb.headers.flatMap { ["-H", $0] })
                #expect(answer.status == 0, "\(answer.stderr)")
                #expect(answer.stdout == #"{"error":"\#(Self.refusal) (--max-body-size)"}"# + "\n413")

                let recorded = try #require(server.store.requests().first)
                #expect(recorded.refused == Self.refusal)
                #expect(recorded.body == nil)
                #expect(recorded.url == url)
                #expect(server.store.statistics.rejected == 1 && server.store.statistics.captured == 1)
                #expect(lines.withLock { $0 }.last?.hasSuffix("POST \(url) 413  refused: \(Self.refusal)") == true)
                let size = try #require(try FileManager.default.attributesOfItem(atPath: journal.path)[.size] as? Int)
                #expect(size < 2048, "the journal holds \(size) bytes")
                #expect(try CaptureFile.read(path: journal.path) == [recorded])

                // The server goes on serving.
                #expect(try await curl("--data-binary", "{}", url).stdout == #"{"code":200,"status":1}"#)
            }
        }
    }

    @Test("five bombs at `tracksnap serve` leave its memory and its journal small")
    func memoryAndJournal() async throws {
        try await withTemporaryDirectory { directory in
            let journal = directory.appending(path: "journal.ndjson")
            let file = directory.appending(path: "bomb")
            try Data(try await compressedZeros(Self.zeros, layers: 2)).write(to: file)
            let server = try await ServeChild.launch([
                "--journal", journal.path, "--max-body-size", String(Self.limit), "--quiet",
            ])
            defer { if server.process.isRunning { server.process.terminate() } }
            let base = "http://127.0.0.1:\(server.port)"
            #expect(try await curl("--data-binary", "{}", "\(base)/warm-up").status == 0)
            let before = try peakResidentBytes(of: server.process.processIdentifier)
            for _ in 1...5 {
                let answer = try await curl(
                    "--data-binary", "@\(file.path)", "-H", "Content-Encoding: gzip, gzip", "-o", "/dev/null",
                    "--write-out", "%{http_code}",
                    "\(base)/v1/batch")
                #expect(answer.stdout == "413")
            }
            let growth = try peakResidentBytes(of: server.process.processIdentifier) - before
            // Inflated and kept, the five bombs would take 60 MiB; refused at 1 MiB, next to nothing.
            #expect(growth < 16 << 20, "the server's peak memory grew by \(growth) bytes")
            let health = try json(try await curl("\(base)/__tracksnap/health").stdout)
            #expect(health["rejected"]?.doubleValue == 5)
            #expect(health["captured"]?.doubleValue == 6)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: journal.path)[.size] as? Int)
            #expect(size < 8192, "the journal holds \(size) bytes")
            #expect(
                try CaptureFile.read(path: journal.path).compactMap(\.refused)
                    == Array(repeating: Self.refusal, count: 5))
            server.signal(SIGTERM)
            #expect(try await server.waitForExit() == 0)
        }
    }

    @Test("while a bomb inflates, other clients are answered: it is held mid-inflation until all six are")
    func otherClientsAreNotHeldUp() async throws {
        // 80 fields of 256 KiB of zeros, gzip in base64: 20 MiB inflated a field at a time,
        // refused at the 16 MiB limit after 64 of them. Small on the wire, too much for the loop.
        let field = Data(try await compressedZeros(256 << 10)).base64EncodedString()
        let body = Array(("{" + (0..<80).map { "\"f\($0)\":\"\(field)\"" }.joined(separator: ",") + "}").utf8)
        let marker = "bomb-" + UUID().uuidString
        BlockingWorkHold.hold(marker)
        try await withServer(.init(maximumBodySize: 16 << 20)) { server, port in
            // Released whatever happens, so that a failing test leaves no thread held.
            defer { BlockingWorkHold.release(marker) }
            // Held on the thread that inflates it: a body inflated on an event loop never gets there.
            let bomb = try await heldOnThreadPool(marker) {
                try await RawHTTP.send(port: port, method: "POST", target: "/\(marker)", body: body)
            }
            // Six requests on fresh connections, so that some share the bomb's event loop: each
            // answered while the bomb still waits, mid-inflation.
            for index in 0..<6 {
                #expect(try await RawHTTP.send(port: port, target: "/during/\(index)").status == 200)
            }
            #expect(BlockingWorkHold.isHeld(marker))
            BlockingWorkHold.release(marker)
            #expect(try await bomb.value.status == 413)
            #expect(
                server.store.requests().first { $0.url.contains(marker) }?.refused
                    == "the body inflates beyond the limit of 16777216 bytes")
        }
    }

    /// The most memory a process has held at once (`VmHWM`), in bytes.
    private func peakResidentBytes(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kibibytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kibibytes * 1024
    }
}
