import Testing
@testable import TracksnapReports

@Test func placeholder() {}
