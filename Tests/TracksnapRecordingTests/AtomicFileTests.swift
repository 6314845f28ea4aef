import Foundation
import Testing
import TracksnapJSON
import TracksnapTestSupport

@testable import TracksnapRecording

@Suite("Files written whole, or an error a user can act on")
struct AtomicFileTests {
    @Test("a file that cannot be written says which folder is missing or is a file, and leaves nothing behind")
    func folderProblems() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appending(path: "report.xml")
            try AtomicFile.write("x", to: file.path)
            let cases = [
                ("missing/report.xml", false, "the folder \(directory.path)/missing does not exist; create it first"),
                ("report.xml/inner.xml", true, "\(file.path) is a file, not a folder"),
                ("report.xml/a/b.json", true, "\(file.path) is a file, not a folder"),
            ]
            for (name, creating, reason) in cases {
                let path = directory.appending(path: name).path
                let error = try #require(throws: InputError.self) {
                    try AtomicFile.write("{}", to: path, creatingDirectory: creating)
                }
                #expect(error.description == "\(path): error: cannot write the file: \(reason)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.xml"])
            // Created when asked: a new snapshot's folder.
            try AtomicFile.write("{}", to: directory.appending(path: "new/deep/s.json").path)
        }
    }
}
