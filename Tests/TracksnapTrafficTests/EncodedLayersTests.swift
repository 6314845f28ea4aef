import Foundation
import Testing
import TracksnapJSON
import TracksnapTestSupport

@testable import TracksnapTraffic

@Suite("Encoded layers, step by step", .tags(.process), .leftToMakeTest)
struct EncodedLayersTests {
    @Test("a form whose field is base64 JSON holding a form reads as three steps, each at its pointer")
    func steps() {
        let inner = Data(#"{"event": "view", "ref": "a=1&b=two"}"#.utf8).base64EncodedString()
        let steps = EncodedLayers.steps(
            in: "data=\(inner.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")&v=1")
        #expect(steps.map(\.at) == ["", "/data", "/data/ref"])
        #expect(steps.map(\.encodings) == [["form"], ["base64", "JSON"], ["form"]])
        #expect(steps[1].value == .object(["event": "view", "ref": "a=1&b=two"]))
        #expect(steps[2].value == .object(["a": "1", "b": "two"]))
    }

    @Test("gzip inside base64 and a URL's query are named in the step that reads them")
    func gzipAndQuery() throws {
        let inner = try gzipped(Data(#"{"event": "view"}"#.utf8)).base64EncodedString()
        let steps = EncodedLayers.steps(in: #"{"payload": "\#(inner)", "page": "https://x.test/p?a=1"}"#)
        #expect(steps.map(\.at) == ["", "/page", "/payload"])
        #expect(steps.map(\.encodings) == [["JSON"], ["query"], ["base64", "gzip", "JSON"]])
    }

    @Test("plain text has no step, and the steps stop at the limit")
    func bounds() {
        #expect(EncodedLayers.steps(in: "hello world").isEmpty)
        let many = (0..<50).map { "f\($0)=\(Data(#"{"n": \#($0)}"#.utf8).base64EncodedString())" }.joined(
            separator: "&")
        #expect(EncodedLayers.steps(in: many, limit: 5).count == 5)
    }
}
