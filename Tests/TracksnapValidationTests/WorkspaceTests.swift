import Foundation
import Testing
import TracksnapCore
import TracksnapTestSupport
import TracksnapValidation

/// The workspace every loader opens files through: a root confines them, no root does not.
@Suite("A workspace confines the files loaders open")
struct WorkspaceTests {
    @Test("a profile under the root that extends a file outside it is refused before that file is read")
    func extendsOutside() throws {
        try withTemporaryDirectory { directory in
            let root = directory.appending(path: "root")
            let validators = root.appending(path: "Validators")
            try FileManager.default.createDirectory(at: validators, withIntermediateDirectories: true)
            let outside = directory.appending(path: "outside.json")
            try Data(#"{"filter": {"host": "outside-secret.example"}}"#.utf8).write(to: outside)
            try Data(#"{"extends": "\#(outside.path)"}"#.utf8).write(to: validators.appending(path: "shop.json"))

            // The command line and tests name any file: the same profile loads.
            let free = try Profile.load("shop", workspace: Workspace(validators: validators.path))
            #expect(free.file == validators.appending(path: "shop.json").path)

            let confined = Workspace(validators: validators.path, root: root.path)
            let error = try #require(throws: InputError.self) { try Profile.load("shop", workspace: confined) }
            #expect(
                error.description.contains(
                    "\"extends\" in Validators/shop.json: \"\(outside.path)\" is outside the root"))
            #expect(!error.description.contains("outside-secret"))
            // A path named directly, and a relative path that climbs out, are refused too.
            #expect(throws: InputError.self) { try Profile.load(outside.path, workspace: confined) }
            #expect(throws: InputError.self) { try PreparedCheck(snapshotAt: "../outside.json", workspace: confined) }
            // Names stay the operator's: the validators directory is not the root's to refuse.
            #expect(
                try confined.path("Validators/shop.json", field: "validator").hasSuffix("/root/Validators/shop.json"))
        }
    }
}
