import XCTest

@testable import TracksnapTesting

/// The XCTest side of `assertTracking`: outside a Swift Testing `@Test` it fails through
/// `XCTFail`. The failures it records are intercepted here, so that the test can check them.
final class AssertTrackingXCTests: XCTestCase {
    private var intercepted: [(description: String, line: Int)] = []
    private var intercepting = false

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        guard intercepting else {
            return super.recordFailure(
                withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        intercepted.append((description, lineNumber))
    }

    func testAMismatchFailsTheXCTestWithTheWholeDiffAtTheAssertionsLine() {
        intercepting = true
        let line = #line + 1
        assertTracking(checkoutRequests(screen: "Basket"), matches: "Fixtures/Snapshots/checkout.json", record: .never)
        intercepting = false
        XCTAssertEqual(intercepted.count, 1)
        XCTAssertEqual(intercepted.first?.line, line)
        let message = intercepted.first?.description ?? ""
        XCTAssertTrue(message.contains("/parameters/screen"), message)
        XCTAssertTrue(message.contains("\"Basket\""), message)
        XCTAssertTrue(message.contains("value_mismatch"), message)
    }

    func testMatchingTrafficRecordsNoFailure() {
        intercepting = true
        assertTracking(checkoutRequests(), matches: "Fixtures/Snapshots/checkout.json", record: .never)
        intercepting = false
        XCTAssertTrue(intercepted.isEmpty)
    }
}
