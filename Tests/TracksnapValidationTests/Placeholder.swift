import Testing
@testable import TracksnapValidation

@Test func placeholder() {}
