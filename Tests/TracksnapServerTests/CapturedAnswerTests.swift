import Foundation
import NIOCore
import Testing
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation

@testable import TracksnapServer

@Suite("An answer kept for the inspector: its body decoded when shown, cut at its limit")
struct CapturedAnswerTests {
    static let gzipHeader = [CapturedRequest.Header(name: "Content-Encoding", value: "gzip")]

    @Test("a gzip'd answer is shown inflated")
    func inflated() {
        // gzip of {"ok":true}, as Python's gzip.compress(mtime=0) writes it.
        let gzip: [UInt8] = [
            0x1f, 0x8b, 0x8, 0x0, 0x0, 0x0, 0x0, 0x0, 0x2, 0x3, 0xab, 0x56, 0xca, 0xcf, 0x56, 0xb2, 0x2a, 0x29, 0x2a,
            0x4d, 0xad, 0x5, 0x0, 0x90, 0x5f, 0xd4, 0xa7, 0xb, 0x0, 0x0, 0x0,
        ]
        let answer = shown(CapturedAnswer(status: 200, headers: Self.gzipHeader, body: ByteBuffer(bytes: gzip)))
        #expect(answer.body == .text(#"{"ok":true}"#) && !answer.truncated)
    }

    @Test("a body longer than the limit is kept and shown cut, as it came")
    func cut() {
        let long = ByteBuffer(repeating: UInt8(ascii: "a"), count: CapturedAnswer.bodyLimit + 10)
        let kept = CapturedAnswer(status: 200, headers: [], body: long)
        #expect(kept.size == CapturedAnswer.bodyLimit)
        let answer = shown(kept)
        #expect(answer.body == .text(String(repeating: "a", count: CapturedAnswer.bodyLimit)) && answer.truncated)
    }

    @Test("an empty answer has no body")
    func empty() {
        let answer = shown(CapturedAnswer(status: 204, headers: [], body: ByteBuffer()))
        #expect(answer.body == nil && !answer.truncated)
    }
}

/// Made by Python's zlib (`compressedZeros`), as every bomb of the tests is.
@Suite("An answer kept for the inspector that is a decompression bomb", .tags(.process), .leftToMakeTest)
struct CapturedAnswerBombTests {
    @Test("a gzip'd body that inflates beyond the limit is shown as it came, cut")
    func bomb() async throws {
        let bomb = try await compressedZeros(CapturedAnswer.bodyLimit * 4)
        let answer = shown(
            CapturedAnswer(status: 200, headers: CapturedAnswerTests.gzipHeader, body: ByteBuffer(bytes: bomb)))
        #expect(answer.body == .base64(Data(bomb).base64EncodedString()) && answer.truncated)
    }
}

private func shown(_ answer: CapturedAnswer) -> RequestStream.Answer {
    answer.shown(id: "1", redactor: Redactor(secrets: []))
}
