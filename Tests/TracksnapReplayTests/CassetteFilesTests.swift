import Foundation
import Testing
import TracksnapJSON
import TracksnapReplay
import TracksnapTestSupport
import TracksnapValidation
import TracksnapYAML

@Suite("Which files are cassettes: one rule, told by name and shape")
struct CassetteFilesTests {
    @Test(
        "every tool's cassette the readers read is one, by its shape, in any folder",
        arguments: ["dvr.json", "har.json", "patterns.json", "tracksnap.json", "vcr.yml", "vcrpy.yaml", "vinyl.json"])
    func seeds(_ name: String) throws {
        let path = PackagePaths.root.appending(path: "Tests/Fuzz/cassette/\(name)").path
        #expect(Cassette.isCassette(file: path))
        #expect(try Cassette.format(ofFile: path) == Cassette.read(path: path).cassette.format)
    }

    @Test(
        "a snapshot, a profile, YAML of another tool and a file of another name (a HAR capture) are not; YAML that does not parse is"
    )
    func others() throws {
        try withTemporaryDirectory { directory in
            let files = [
                "snapshot.json": #"{"requests": [{"method": "GET", "url": "https://a.example/"}]}"#,
                "profile.json": #"{"name": "shop", "extends": "segment"}"#,
                "ci.yml": "on: push\njobs: {}\n",
                "notes.txt": #"{"name": "d", "interactions": []}"#,
                "broken.yaml": "interactions: [\n",
                "shop.har": #"{"log": {"version": "1.2", "entries": []}}"#,
            ]
            for (name, text) in files { try write(text, to: directory.appending(path: name)) }
            let claimed = files.keys.sorted().filter { Cassette.isCassette(file: directory.appending(path: $0).path) }
            #expect(claimed == ["broken.yaml"])
            #expect(Cassette.format(ofFile: directory.appending(path: "broken.yaml").path) == nil)
            #expect(!Cassette.isCassette(file: directory.appending(path: "absent.yml").path))
        }
    }

    @Test(
        "a YAML file is parsed once for lint's three questions (a RudderStack plan? a cassette? the cassette), a folder's listing included"
    )
    func parsedOnce() throws {
        try withTemporaryDirectory { directory in
            // The directory's name is its own: the marker the hook counts the parses of its files by.
            let marker = directory.lastPathComponent
            let seed = PackagePaths.root.appending(path: "Tests/Fuzz/cassette/vcrpy.yaml")
            let path = directory.appending(path: "shop.yaml").path
            try FileManager.default.copyItem(atPath: seed.path, toPath: path)
            FileParses.watch(marker)

            let file = SourceFile(path: path)
            #expect(!TrackingPlan.isRudderStack(file))
            #expect(Cassette.isCassette(file))
            // Read as the seed it was copied from is read, by path (unmarked: not counted).
            #expect(try Cassette.read(file).cassette == Cassette.read(path: seed.path).cassette)
            #expect(FileParses.count(marker) == 1)

            FileParses.watch(marker)
            let listed = try Workspace().files([directory.path], field: "path", cassettes: Cassette.isCassette)
            #expect(listed == [path])
            #expect(FileParses.count(marker) == 1)

            // As `tracksnap lint` reads a folder: each file checked through the parse that listed it.
            FileParses.watch(marker)
            var read: [String] = []
            try Workspace().forEachFile([directory.path], field: "path", cassettes: Cassette.isCassette) {
                found, file in
                guard let file else { return }
                read.append(found)
                #expect(!TrackingPlan.isRudderStack(file) && Cassette.isCassette(file))
                #expect((try? Cassette.read(file).cassette.interactions.count) == 1)
            }
            #expect(read == [path])
            #expect(FileParses.count(marker) == 1)
        }
    }
}
