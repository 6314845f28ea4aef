import Testing
@testable import TracksnapCore

@Test func placeholder() {}
