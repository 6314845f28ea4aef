import Foundation
import TracksnapDecoders
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

/// Times decoding vendor traffic into events, beside the time it takes only to read the same
/// payload: a gzip Segment batch of 500 calls (inflated and parsed with `JSONDocument.parse`),
/// and gtag.js batches (the query and body lines split as form parameters).
func runDecodingBenchmark() {
    print("\nDecoding: captured requests into events, beside merely reading the same payload")
    print(
        "case".padded(44) + "events".padded(8, right: true) + "read (ms)".padded(11, right: true)
            + "decode (ms)".padded(13, right: true)
            + "events/s".padded(12, right: true) + "ratio".padded(8, right: true))
    guard let segment = DecodingWorkload.segmentBatch(events: 500) else {
        print("decoding benchmark: the system's gzip is needed to build the Segment batch")
        return
    }
    let gtag = DecodingWorkload.gtagBatch(events: 20)
    measure("Segment /v1/batch, gzip, 500 events", request: segment, repetitions: 40, expected: 500) { request in
        guard let bytes = request.bodyBytes,
            let inflated = try? ContentDecoding.decode(bytes, encoding: "gzip", limit: 64 << 20),
            let document = try? JSONDocument.parse(inflated, file: "", trackLocations: false)
        else { return 0 }
        return document.value["batch"]?.arrayValue?.count ?? 0
    }
    measure("gtag /g/collect, 20 events a request", request: gtag, repetitions: 1_000, expected: 20) { request in
        let query = request.url.split(separator: "?", maxSplits: 1).last ?? ""
        let shared = FormEncoding.pairs(query)
        let lines = (request.bodyText ?? "").split(separator: "\r\n").map { FormEncoding.pairs($0) }
        return shared.isEmpty ? 0 : lines.filter { !$0.isEmpty }.count
    }
    print("ratio = decode / read: what turning the payload into events costs beyond reading it.")
}

/// Decodes the request `repetitions` times, then reads it as many times, and prints both.
private func measure(
    _ name: String, request: CapturedRequest, repetitions: Int, expected: Int, read: (CapturedRequest) -> Int
) {
    let clock = ContinuousClock()
    var decoded = 0
    var readCount = 0
    let decode = clock.measure {
        for _ in 0..<repetitions { decoded += Decoders.decode(request, using: VendorDecoder.all).events.count }
    }
    let reading = clock.measure {
        for _ in 0..<repetitions { readCount += read(request) }
    }
    guard decoded == expected * repetitions, readCount == expected * repetitions else {
        print(
            "decoding benchmark: \(name) gave \(decoded / repetitions) events decoded, \(readCount / repetitions) read; expected \(expected)"
        )
        return
    }
    let seconds = Double(decode.components.seconds) + Double(decode.components.attoseconds) / 1e18
    let perSecond = Double(decoded) / max(seconds, 1e-9)
    print(
        name.padded(44) + String(decoded).padded(8, right: true) + reading.milliseconds.padded(11, right: true)
            + decode.milliseconds.padded(13, right: true) + String(format: "%.0f", perSecond).padded(12, right: true)
            + String(format: "%.2fx", decode / reading).padded(8, right: true))
}

/// Generated vendor traffic, shaped as the SDKs send it.
enum DecodingWorkload {
    /// A Segment batch as analytics-python sends it with `gzip=True`: `{"batch": […], "sentAt"}`,
    /// compressed by the system's gzip; nil when `gzip` cannot be run.
    static func segmentBatch(events: Int) -> CapturedRequest? {
        var calls: [String] = []
        for i in 0..<events {
            let type = ["track", "track", "track", "page", "identify"][i % 5]
            var call =
                #"{"type":"\#(type)","messageId":"\#(UUID().uuidString.lowercased())","timestamp":"2026-11-21T08:00:\#(String(format: "%02d", i % 60)).123+00:00","userId":"user-\#(i % 40)","anonymousId":null,"integrations":{},"context":{"library":{"name":"analytics-python","version":"2.4.0"}}"#
            switch type {
            case "track":
                call +=
                    #","event":"Order Completed","properties":{"order_id":"o-\#(1000 + i)","revenue":\#(Double(i % 90) + 0.5),"currency":"EUR","products":[{"sku":"sku-\#(i % 17)","quantity":\#(1 + i % 3)}]}"#
            case "page":
                call +=
                    #","name":"Docs","category":"Getting Started","properties":{"url":"https://example.com/docs/\#(i)"}"#
            default: call += #","traits":{"plan":"pro","email":"user-\#(i % 40)@example.com"}"#
            }
            calls.append(call + "}")
        }
        let json = #"{"batch":[\#(calls.joined(separator: ","))],"sentAt":"2026-11-21T08:01:00.000+00:00"}"#
        guard let compressed = systemGzip(Data(json.utf8)) else { return nil }
        return CapturedRequest(
            id: "1", method: "POST", url: "https://api.segment.io/v1/batch",
            headers: [
                .init(name: "Content-Type", value: "application/json"),
                .init(name: "Authorization", value: "Basic d2tfYmVuY2g6"),
            ],
            body: .base64(compressed.base64EncodedString()))
    }

    /// A gtag.js request carrying several events: the shared parameters in the query, one event a body line.
    static func gtagBatch(events: Int) -> CapturedRequest {
        let query =
            "v=2&tid=G-FX7T3K4Q9B&gtm=45je4bk0v9102476930za200&_p=1732176000123&cid=1398217362.1732176000&ul=en-us&sr=1920x1080&_s=3&sid=1732176000&sct=1&seg=1&dl=https%3A%2F%2Fshop.example%2Fproduct%2Fsku-1&dt=Shop&tfd=912"
        let lines = (0..<events).map { i in
            "en=view_item&_et=\(1000 + i)&cu=EUR&pr1=idsku-\(i)~nmTee~brGoogle~caApparel~vagreen~pr12.5~qt1&epn.value=\(12 + i).5&ep.method=button"
        }
        return CapturedRequest(
            id: "2", method: "POST", url: "https://region1.google-analytics.com/g/collect?" + query,
            headers: [.init(name: "Content-Type", value: "text/plain;charset=UTF-8")],
            body: .text(lines.joined(separator: "\r\n")))
    }

    private static func systemGzip(_ data: Data) -> Data? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "gzip -c"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            return nil
        }
        // Written from another thread: gzip's output pipe must be drained while it reads.
        let writer = Thread {
            input.fileHandleForWriting.write(data)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let compressed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 && !compressed.isEmpty ? compressed : nil
    }
}
