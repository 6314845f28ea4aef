import Testing
@testable import Patterns

@Test func placeholder() {}
