import Foundation
import Testing
import TracksnapTestSupport

@testable import TracksnapServer

@Suite("A captured request's timestamp")
struct TimestampTests {
    @Test("is RFC 3339 in UTC with milliseconds, as Foundation's ISO 8601 formatter writes it, from 1970 to 2100")
    func asFoundationWritesIt() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        var random = SeededGenerator(seed: 30)
        let times =
            [(0, 0), (951_782_400, 999), (1_795_910_400, 5)]
            + (0..<500).map { _ in
                (Int.random(in: 0..<4_102_444_800, using: &random), Int.random(in: 0..<1000, using: &random))
            }
        for (seconds, milliseconds) in times {
            let date = Date(timeIntervalSince1970: Double(seconds) + Double(milliseconds) / 1000 + 0.0001)
            #expect(Timestamp.text(seconds: seconds, milliseconds: milliseconds) == formatter.string(from: date))
        }
        #expect(Timestamp.now().utf8.count == 24)
    }
}
