import Foundation
import TracksnapDecoders
import TracksnapSnapshot
import TracksnapTraffic

extension FuzzTarget {
    /// Every vendor decoder, over the requests of a capture file or one request written by hand
    /// (`METHOD URL`, headers, a blank line, the body).
    static let decoders = FuzzTarget(
        "decoders", "Decoders.decode and each of VendorDecoder.all over a capture's requests, else one raw request",
        seeds: ["Tests/TracksnapDecodersTests/Fixtures", "Tests/TracksnapCLITests/Fixtures/captures"]
    ) { bytes throws(PropertyViolation) in
        let requests = (try? CaptureFile.read(data: Data(bytes), file: "fuzz")) ?? [Input.request(bytes)]
        for request in requests {
            let result = Decoders.decode(request)
            _ = (result.events, result.error)
            for decoder in VendorDecoder.all {
                let own = decoder.decode(request)
                _ = own.events.map(\.name)
            }
        }
    }
}
