import Foundation
import TracksnapTestSupport

extension PackagePaths {
    /// The fixtures written for the CLI tests.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "Fixtures")
}
