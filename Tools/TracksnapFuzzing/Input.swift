import Foundation
import TracksnapSnapshot
import TracksnapTraffic

/// How targets cut one fuzzer input into the pieces they need.
enum Input {
    /// The input as text; bytes that are not UTF-8 become U+FFFD.
    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes up to the first newline, and those after it.
    static func firstLine(_ bytes: [UInt8]) -> (line: ArraySlice<UInt8>, rest: ArraySlice<UInt8>) {
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return (bytes[...], []) }
        return (bytes[..<newline], bytes[(newline + 1)...])
    }

    /// A request written as `METHOD URL`, header lines `Name: value`, a blank line, then the body
    /// (text when it is UTF-8, otherwise base64), for targets that take one request.
    static func request(_ bytes: [UInt8]) -> CapturedRequest {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false)
        let start = text(Array(lines.first ?? []))
        let method = start.split(separator: " ", maxSplits: 1).first.map(String.init) ?? "GET"
        let url = start.split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        var headers: [CapturedRequest.Header] = []
        var rest = lines.count > 1 ? Array(lines.removeLast()) : []
        while !rest.isEmpty {
            let (line, after) = firstLine(rest)
            rest = Array(after)
            if line.isEmpty { break }
            let header = text(Array(line))
            let parts = header.split(separator: ":", maxSplits: 1)
            headers.append(
                .init(
                    name: String(parts.first ?? ""),
                    value: parts.count > 1 ? String(parts[1].drop { $0 == " " }) : ""))
        }
        let body: CapturedRequest.Body?
        if rest.isEmpty {
            body = nil
        } else if let utf8 = String(validating: rest, as: UTF8.self) {
            body = .text(utf8)
        } else {
            body = .base64(Data(rest).base64EncodedString())
        }
        return CapturedRequest(id: "0", method: method, url: url, headers: headers, body: body)
    }
}
