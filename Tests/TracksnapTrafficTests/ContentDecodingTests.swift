import Foundation
import Testing
import TracksnapTestSupport
import TracksnapTraffic

@Suite("Content decoding: gzip and deflate, with a limit", .tags(.process), .leftToMakeTest)
struct ContentDecodingTests {
    private func gzip(_ text: String) throws -> [UInt8] { Array(try gzipped(Data(text.utf8))) }

    @Test("gzip bodies are inflated")
    func gzipBody() throws {
        let text = String(repeating: #"{"event":"Order Completed"}"#, count: 1000)
        let compressed = try gzip(text)
        #expect(ContentDecoding.looksGzipped(compressed))
        #expect(try ContentDecoding.decode(compressed, encoding: "gzip", limit: 1 << 20) == Array(text.utf8))
    }

    @Test("a gzip bomb stops at the limit with an error")
    func bomb() throws {
        let compressed = try gzip(String(repeating: "a", count: 5_000_000))
        #expect(compressed.count < 10_000)
        #expect(throws: ContentDecoding.Failure.self) {
            try ContentDecoding.decode(compressed, encoding: "gzip", limit: 1_000_000)
        }
    }

    @Test("corrupt, truncated and unknown encodings are errors, not crashes")
    func bad() throws {
        let compressed = try gzip("hello world")
        #expect(throws: ContentDecoding.Failure.self) {
            try ContentDecoding.decode(Array(compressed.prefix(12)), encoding: "gzip", limit: 100)
        }
        #expect(throws: ContentDecoding.Failure.self) {
            try ContentDecoding.decode([1, 2, 3, 4], encoding: "gzip", limit: 100)
        }
        #expect(throws: ContentDecoding.Failure.self) {
            try ContentDecoding.decode([1, 2, 3], encoding: "br", limit: 100)
        }
        #expect(try ContentDecoding.decode([1, 2, 3], encoding: "identity", limit: 100) == [1, 2, 3])
    }
}
