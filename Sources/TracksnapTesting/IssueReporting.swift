import TracksnapJSON

#if canImport(Testing)
    import Testing
#endif
#if canImport(XCTest)
    import XCTest
#endif

/// Where an assertion was called, to point a failure at that line.
struct CallSite: Sendable {
    var fileID: StaticString
    var filePath: StaticString
    var line: UInt
    var column: UInt
}

/// Fails the running test with a message, in whichever framework runs it: Swift Testing when a
/// `@Test` is running (`Issue.record`), XCTest otherwise (`XCTFail`).
///
/// One function, so that every assertion reports the same way in both frameworks (as
/// swift-snapshot-testing's `recordIssue` does).
func reportIssue(_ message: String, at site: CallSite) {
    #if canImport(Testing)
        if Test.current != nil {
            Issue.record(
                Comment(rawValue: message),
                sourceLocation: Testing.SourceLocation(
                    fileID: String(describing: site.fileID), filePath: String(describing: site.filePath),
                    line: Int(site.line), column: Int(site.column)))
            return
        }
    #endif
    #if canImport(XCTest)
        XCTFail(message, file: site.filePath, line: site.line)
    #else
        print("\(site.filePath):\(site.line): error: \(message)")
    #endif
}
