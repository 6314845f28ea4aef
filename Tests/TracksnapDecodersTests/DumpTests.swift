import Testing
import TracksnapCore
import TracksnapDecoders

@Test func dump() throws {
    for name in Fixtures.all {
        print("=== \(name)")
        for request in try Fixtures.requests(name) {
            switch Decoders.decode(request) {
            case .unclaimed: print("  #\(request.id) UNCLAIMED")
            case .failed(let e): print("  #\(request.id) FAILED \(e)")
            case .events(let events):
                for e in events { print("  #\(e.request)[\(e.index)] \(e.validationView.serialized())") }
            }
        }
    }
}
