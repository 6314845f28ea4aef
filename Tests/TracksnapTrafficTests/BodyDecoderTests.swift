import Foundation
import Testing
import TracksnapTestSupport
import TracksnapTraffic

@Suite("The body decoder: every layer of a request inflated within one limit", .tags(.process), .leftToMakeTest)
struct BodyDecoderTests {
    private let limit = 1 << 20

    /// A bomb of 16 MiB of zeros, 16 times the limit.
    private static let zeros = 16 << 20

    @Test("gzip and deflate bodies are inflated, text when UTF-8, base64 otherwise")
    func ordinaryBodies() async throws {
        let decoder = BodyDecoder(limit: limit)
        let json = #"{"event":"Order Completed"}"#
        #expect(try decoder.body(Array(try gzipped(Data(json.utf8))), contentEncoding: "gzip") == .text(json))
        #expect(
            try decoder.body(try await compressedZeros(10, wrapper: .zlib), contentEncoding: "deflate")
                == .text(String(repeating: "\0", count: 10)))
        #expect(
            try decoder.body(try await compressedZeros(10, wrapper: .raw), contentEncoding: "deflate")
                == .text(String(repeating: "\0", count: 10)))
        #expect(try decoder.body([0xFF, 0x00], contentEncoding: nil) == .base64("/wA="))
        // A body that does not decode is kept as sent, not lost.
        #expect(try decoder.body([0x1F, 0x8B, 1, 2], contentEncoding: "gzip") == .base64("H4sBAg=="))
    }

    @Test("a bomb is refused at the limit, however it is wrapped", arguments: BombShape.allCases)
    func bombs(shape: BombShape) async throws {
        let (bytes, encoding) = try await shape.request(zeros: Self.zeros)
        #expect(bytes.count < 128 << 10)
        // The refusal naming the limit is the decoder's word that it stopped there; that
        // inflation stops at the limit's first byte rather than at the bomb's end is
        // InflationTests' to show.
        let refusal = try #require(throws: BodyDecoder.Refusal.self) {
            try BodyDecoder(limit: limit).body(bytes, contentEncoding: encoding)
        }
        #expect(refusal.description == "the body inflates beyond the limit of 1048576 bytes")
    }

    @Test("the same shapes inflating within the limit are accepted", arguments: BombShape.allCases)
    func withinTheLimit(shape: BombShape) async throws {
        let (bytes, encoding) = try await shape.request(zeros: 300_000)
        #expect(throws: Never.self) { try BodyDecoder(limit: limit).body(bytes, contentEncoding: encoding) }
    }

    @Test("nested layers count together: two layers within the limit each, beyond it together")
    func layersCountTogether() async throws {
        // A form with two fields, each 600,000 zeros gzipped in base64: each fits 1 MiB, both do not.
        let field = Data(try await compressedZeros(600_000)).base64EncodedString()
        let one = Array("a=\(FormEncoding.encode(field))".utf8)
        let two = Array("a=\(FormEncoding.encode(field))&b=\(FormEncoding.encode(field))".utf8)
        #expect(throws: Never.self) { try BodyDecoder(limit: limit).body(one) }
        #expect(throws: BodyDecoder.Refusal.self) { try BodyDecoder(limit: limit).body(two) }
    }

    @Test("a capture file holding a bomb is an error naming the line and the limit")
    func captureFile() async throws {
        let bomb = Data(try await compressedZeros(Self.zeros, layers: 2)).base64EncodedString()
        let line = #"{"method":"POST","url":"https://t.example/batch","body":"\#(bomb)","bodyEncoding":"base64"}"#
        let error = try #require(throws: CaptureFileError.self) {
            try CaptureFile.read(
                data: Data(("{\"method\":\"GET\",\"url\":\"https://t.example/\"}\n" + line + "\n").utf8),
                file: "bomb.ndjson", maximumBodySize: limit)
        }
        #expect(
            "\(error)" == "bomb.ndjson:2: body: inflates beyond the limit of 1 MiB (every gzip layer inside it counted)"
        )
    }

    @Test("a refused request reads and writes as NDJSON with its reason and no body")
    func refusedRecord() throws {
        let request = CapturedRequest(
            id: "7", method: "POST", url: "https://t.example/b",
            refused: "the body inflates beyond the limit of 1048576 bytes")
        let line = CaptureFile.ndjsonLine(request)
        #expect(
            line
                == #"{"headers":[],"id":"7","method":"POST","refused":"the body inflates beyond the limit of 1048576 bytes","url":"https://t.example/b"}"#
        )
        #expect(try CaptureFile.read(data: Data(line.utf8), file: "refused.ndjson") == [request])
    }
}

/// The ways a bomb reaches a body decoder.
enum BombShape: String, CaseIterable, Sendable {
    /// `Content-Encoding: gzip` on a gzip stream that holds another.
    case gzipInGzip
    /// `Content-Encoding: gzip, gzip`.
    case twoCodings
    /// `Content-Encoding: deflate`.
    case deflate
    /// gzip with no `Content-Encoding`, as PostHog's `gzip-js` sends it.
    case bareGzip
    /// gzip in base64 in a form field (`data=H4sI…`).
    case base64InForm
    /// gzip in base64 in a JSON string.
    case base64InJSON

    func request(zeros: Int) async throws -> (bytes: [UInt8], encoding: String?) {
        switch self {
        case .gzipInGzip: return (try await compressedZeros(zeros, layers: 2), "gzip")
        case .twoCodings: return (try await compressedZeros(zeros, layers: 2), "gzip, gzip")
        case .deflate: return (try await compressedZeros(zeros, wrapper: .zlib), "deflate")
        case .bareGzip: return (try await compressedZeros(zeros), nil)
        case .base64InForm:
            let field = Data(try await compressedZeros(zeros)).base64EncodedString()
            return (Array("ip=1&data=\(FormEncoding.encode(field))".utf8), nil)
        case .base64InJSON:
            let field = Data(try await compressedZeros(zeros)).base64EncodedString()
            return (Array(#"{"batch":[{"payload":"\#(field)"}]}"#.utf8), nil)
        }
    }
}
