import Foundation
import Testing
import TracksnapJSON
import TracksnapReplay

@Suite("Learning a cassette from several runs")
struct CassetteLearningTests {
    /// A DVR cassette of one login, its secrets as another tool recorded them (in clear).
    static func run(_ index: Int) -> String {
        #"""
        {"name": "login", "interactions": [{"recorded_at": 1700000000,
          "request": {"method": "POST", "url": "https://a.example/login?ts=170000000000\#(index)&access_token=tok-q\#(index)x9",
                      "headers": {"Authorization": "Bearer tok-h\#(index)x9", "Content-Type": "application/json"},
                      "body": {"user": "u1", "password": "pw-\#(index)x9x9", "nonce": "n-\#(index)"}},
          "response": {"status": 200,
                       "headers": {"Content-Type": "application/json", "Set-Cookie": "sid=tok-c\#(index)x9"},
                       "body": {"token": "tok-r\#(index)x9", "note": "Authorization: Bearer tok-n\#(index)x9"}}}]}
        """#
    }

    @Test("no secret of any run reaches the learnt cassette, not even as a pattern of what differs between runs")
    func secrets() throws {
        let runs = try (1...2).map { try Cassette.read(Array(Self.run($0).utf8), file: "run\($0).json").cassette }
        let (cassette, learnt) = try Cassette.learning(from: runs, names: ["run1.json", "run2.json"])
        let text = cassette.json.serialized()
        for secret in ["tok-", "pw-", "x9"] {
            #expect(!text.contains(secret), "\(secret) reached the learnt cassette: \(text)")
        }
        #expect(learnt.contains("interaction 1: query ts (epoch-ms)"), "\(learnt)")
        #expect(!learnt.contains { $0.contains("password") || $0.contains("access_token") }, "\(learnt)")
        #expect(text.contains(#""user":"u1""#), "\(text)")
    }
}
