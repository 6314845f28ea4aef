import ArgumentParser
import Foundation
import Testing
import TracksnapJSON
import TracksnapTestSupport

@testable import TracksnapCommandLine

/// `tracksnap lint` over a folder, run in this process so that its parses are counted.
@Suite("tracksnap lint parses each file of a folder once")
struct LintParsesTests {
    @Test(
        "vcrpy's YAML, DVR's and Vinyl's JSON (its trailing commas too) and a snapshot: each parsed once, the listing's parse the one its check reads"
    )
    func folderParsedOnce() throws {
        try withTemporaryDirectory { directory in
            // The directory's name is its own: the marker the hook counts the parses of its files by.
            let marker = directory.lastPathComponent
            for seed in ["vcrpy.yaml", "dvr.json"] {
                try FileManager.default.copyItem(
                    atPath: PackagePaths.root.appending(path: "Tests/Fuzz/cassette/\(seed)").path,
                    toPath: directory.appending(path: seed).path)
            }
            // Vinyl's tracks with the trailing comma Vinyl reads.
            var vinyl = try String(
                contentsOf: PackagePaths.root.appending(path: "Tests/Fuzz/cassette/vinyl.json"), encoding: .utf8)
            let close = try #require(vinyl.lastIndex(of: "]"))
            vinyl.insert(",", at: close)
            try vinyl.write(to: directory.appending(path: "vinyl.json"), atomically: true, encoding: .utf8)
            try write(
                #"{"name": "checkout", "requests": [{"method": "GET", "url": "https://shop.example/cart"}]}"#,
                to: directory.appending(path: "checkout.json"))
            FileParses.watch(marker)
            let lint = try Lint.parse([directory.path])
            try lint.run()
            #expect(FileParses.count(marker) == 4)
        }
    }
}
