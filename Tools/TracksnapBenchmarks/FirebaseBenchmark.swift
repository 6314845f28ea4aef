import Foundation
import Protobuf
import TracksnapDecoders
import TracksnapTraffic

/// Times Firebase Analytics uploads decoded into events, for `Benchmarks/firebase.sh` (`make
/// bench-firebase`): `TracksnapBenchmarks firebase FILE` reads the bodies
/// `Benchmarks/firebase_batches.py` writes (one base64 protobuf `Batch` a line) into captured
/// requests to `https://app-measurement.com/a`, then times one pass of each of two ways and prints
/// for each `NAME BATCHES EVENTS SECONDS`: `tracksnap-firebase`, `VendorDecoder.firebase` (what
/// validation, recording, `tracksnap events` and the inspector run on an upload: the body read,
/// every event with its GA4 names, parameters and context), and `tracksnap-schemaless`,
/// `ProtobufValue.read` on the same bytes (every field at every depth guessed, as bbpb reads them).
func runFirebaseBenchmark(path: String) -> Bool {
    let lines: [Substring]
    do {
        lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    } catch {
        print("firebase benchmark: \(error)")
        return false
    }
    var requests: [CapturedRequest] = []
    var bodies: [[UInt8]] = []
    for (index, line) in lines.enumerated() {
        guard let data = Data(base64Encoded: String(line)) else {
            print("firebase benchmark: line \(index + 1) of \(path) is not base64")
            return false
        }
        bodies.append(Array(data))
        requests.append(
            CapturedRequest(
                id: String(index + 1), method: "POST", url: "https://app-measurement.com/a",
                headers: [.init(name: "Content-Type", value: "application/x-www-form-urlencoded")],
                body: .base64(String(line))))
    }
    let clock = ContinuousClock()

    var events = 0
    var failed = 0
    let decoding = clock.measure {
        for request in requests {
            switch VendorDecoder.firebase.decode(request) {
            case .events(let decoded): events += decoded.count
            default: failed += 1
            }
        }
    }
    guard failed == 0 else {
        print("firebase benchmark: \(failed) of \(requests.count) bodies did not decode")
        return false
    }
    print("tracksnap-firebase \(requests.count) \(events) \(decoding.seconds)")

    var schemalessEvents = 0
    let schemaless = clock.measure {
        for body in bodies {
            guard let fields = try? ProtobufValue.read(body) else { continue }
            for case .message(let bundle) in fields.lazy.filter({ $0.number == 1 }).map(\.value) {
                schemalessEvents += bundle.lazy.filter { $0.number == 2 }.count
            }
        }
    }
    print("tracksnap-schemaless \(bodies.count) \(schemalessEvents) \(schemaless.seconds)")
    return true
}

extension Duration {
    fileprivate var seconds: String {
        String(format: "%.6f", Double(components.seconds) + Double(components.attoseconds) / 1e18)
    }
}
