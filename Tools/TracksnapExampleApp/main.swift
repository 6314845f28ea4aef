// An app's checkout, standing in for an iOS app under a UI test: it sends two Segment events
// through URLSession with an in-process capture that answers them locally and reports every
// request to the `tracksnap serve` session its environment names (TRACKSNAP_SERVER_URL,
// TRACKSNAP_SESSION: what `TracksnapClient.Session.environment` writes, and what an XCUITest
// passes as `launchEnvironment`). The test in another process waits and validates through
// the control API.
//
// EXAMPLE_APP_DROP_PROPERTY=NAME leaves that property out of every event: the release with a
// tracking bug that the test must catch.
import Foundation
import TracksnapCapture
import TracksnapJSON
import TracksnapTraffic

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let environment = ProcessInfo.processInfo.environment
let configuration = URLSessionConfiguration.ephemeral
let reportTo = TracksnapClient.Session(environment: environment)
if reportTo == nil {
    FileHandle.standardError.write(
        Data("example app: \(TracksnapClient.Session.sessionVariable) is not set; nothing is reported\n".utf8))
}
// A real app installs the capture only in its test builds, or when its environment names a
// session; answering locally keeps test events away from the vendor.
let capture = CaptureSession.install(on: configuration, mode: .respond(), reportingTo: reportTo)
let session = URLSession(configuration: configuration)

let dropped = environment["EXAMPLE_APP_DROP_PROPERTY"]
let anonymousId = UUID().uuidString.lowercased()
let cartId = UUID().uuidString.lowercased()
let checkout: [(event: String, properties: [String: JSONValue])] = [
    ("Checkout Started", ["order_id": "o-1001", "currency": "EUR", "cart_id": .string(cartId)]),
    (
        "Order Completed",
        ["order_id": "o-1001", "currency": "EUR", "revenue": .number("12.5"), "cart_id": .string(cartId)]
    ),
]

guard let track = URL(string: "https://api.segment.io/v1/track") else { exit(2) }
var failed = false
for (event, properties) in checkout {
    var request = URLRequest(url: track)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    let body: JSONValue = .object([
        "type": "track", "event": .string(event), "anonymousId": .string(anonymousId),
        "messageId": .string(UUID().uuidString.lowercased()), "timestamp": .string(Date().ISO8601Format()),
        "properties": .object(properties.filter { $0.key != dropped }),
        "context": .object(["library": .object(["name": "tracksnap-example-app", "version": "1.0.0"])]),
    ])
    request.httpBody = Data(body.serialized().utf8)
    do {
        let (_, response) = try await session.data(for: request)
        print("\(event): \((response as? HTTPURLResponse)?.statusCode ?? 0)")
    } catch {
        FileHandle.standardError.write(Data("example app: \(event) failed: \(error)\n".utf8))
        failed = true
    }
}
print("captured \(capture.requests.count) requests")
exit(failed ? 1 : 0)
