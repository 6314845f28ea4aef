import ArgumentParser
import Foundation
import Testing
import TracksnapTestSupport
import TracksnapYAML

@testable import TracksnapCommandLine

/// `tracksnap lint` over a folder, run in this process so that its parses are counted.
@Suite("tracksnap lint parses a folder's YAML once")
struct LintParsesTests {
    @Test("a cassette in a folder is parsed once: the listing's parse is the one its check reads")
    func folderCassetteParsedOnce() throws {
        try withTemporaryDirectory { directory in
            let marker = "lint-parses-" + UUID().uuidString
            let folder = directory.appending(path: marker)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: PackagePaths.root.appending(path: "Tests/Fuzz/cassette/vcrpy.yaml").path,
                toPath: folder.appending(path: "shop.yaml").path)
            YAMLParses.watch(marker)
            let lint = try Lint.parse([folder.path])
            try lint.run()
            #expect(YAMLParses.count(marker) == 1)
        }
    }
}
