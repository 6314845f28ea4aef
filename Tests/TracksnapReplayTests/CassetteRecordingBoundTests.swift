import Foundation
import Synchronization
import Testing
import TracksnapJSON
import TracksnapReplay
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@Suite("A recording holds a bounded number of interactions and bytes, and says when it is full")
struct CassetteRecordingBoundTests {
    func record(_ player: CassettePlayer, _ count: Int, bytes: Int) {
        for index in 1...count {
            player.record(
                CapturedRequest(id: "\(index)", method: "GET", url: "https://a.example/page/\(index)"),
                response: .init(status: 200, body: .text(String(repeating: "a", count: bytes))))
        }
    }

    @Test("past the most interactions (--max-requests) requests are not recorded, and the recording says so once")
    func boundedByCount() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "c.json").path
            let told = Mutex<[String]>([])
            let player = try CassettePlayer(
                path: path, mode: .missing, writeDelay: .seconds(600),
                writeFailed: { error in told.withLock { $0.append(error.description) } }, maximumRecorded: 3)
            record(player, 5, bytes: 10)
            player.flush()
            #expect(try Cassette.read(path: path).cassette.interactions.count == 3)
            #expect(player.problems.count == 1, "\(player.problems)")
            let problem = player.problems.first ?? ""
            #expect(problem.contains("c.json") && problem.contains("full at 3 interactions"), "\(problem)")
            #expect(problem.contains("https://a.example/page/4"), "\(problem)")
            #expect(told.withLock { $0 } == player.problems)
        }
    }

    @Test("past the most bytes requests are not recorded, and the recording says so once")
    func boundedByBytes() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "c.json").path
            let player = try CassettePlayer(
                path: path, mode: .missing, writeDelay: .seconds(600), maximumRecordedBytes: 2_500_000)
            record(player, 4, bytes: 1_000_000)
            player.flush()
            #expect(try Cassette.read(path: path).cassette.interactions.count == 2)
            #expect(player.problems.count == 1, "\(player.problems)")
            #expect(player.problems.first?.contains("at most 2 MiB") == true, "\(player.problems)")
        }
    }

    @Test("by default a recording holds at most 64 MiB")
    func defaultBytes() throws {
        #expect(CassettePlayer.recordedBytesKept == 64 * 1024 * 1024)
    }
}
