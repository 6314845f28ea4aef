import Foundation
import Testing
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic
import TracksnapValidation
import TracksnapValidationTestSupport

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

    @Test(
        "a snapshot's profile names are looked up in the nearest Validators beside it or above it, never above the root; a directory named wins"
    )
    func nearestValidators() throws {
        try withTemporaryDirectory { directory in
            let app = directory.appending(path: "app")
            for (folder, host) in [("Validators", "app.example"), ("Snapshots/Validators", "snapshots.example")] {
                let validators = app.appending(path: folder)
                try FileManager.default.createDirectory(at: validators, withIntermediateDirectories: true)
                try Data(#"{"filter": {"host": "\#(host)"}}"#.utf8).write(to: validators.appending(path: "shop.json"))
            }
            let deep = app.appending(path: "Flows/checkout")
            try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
            let snapshot = deep.appending(path: "checkout.json")
            try Data(#"{"validator": "shop", "requests": []}"#.utf8).write(to: snapshot)
            let nearer = app.appending(path: "Snapshots/checkout.json")
            try Data(#"{"validator": "shop", "requests": []}"#.utf8).write(to: nearer)

            // From any working directory: the snapshot's own surroundings decide.
            #expect(try PreparedCheck(snapshotAt: snapshot.path).profile.file == app.path + "/Validators/shop.json")
            #expect(
                try PreparedCheck(snapshotAt: nearer.path).profile.file == app.path + "/Snapshots/Validators/shop.json")
            // A directory named is the one looked in.
            let named = Workspace(validators: app.appending(path: "Snapshots/Validators").path)
            #expect(
                try PreparedCheck(snapshotAt: snapshot.path, workspace: named).profile.file
                    == app.path + "/Snapshots/Validators/shop.json")
            // Under a root, never above it: the root's own Validators, which is not there.
            let confined = Workspace(root: deep.path)
            let error = try #require(throws: InputError.self) {
                try PreparedCheck(snapshotAt: "checkout.json", workspace: confined)
            }
            #expect(error.description.contains("no validator profile \"shop\""), "\(error)")
            #expect(Workspace(root: app.path).validators.hasSuffix("/app/Validators"))
        }
    }

    @Test("a workspace's own validators and filters are what its profiles name, and no other workspace sees them")
    func extensions() throws {
        struct Nothing: Validator {
            func validate(_ snapshot: Snapshot, selection: Selection, profile: Profile) -> SnapshotResult {
                SnapshotResult(
                    file: snapshot.file, name: snapshot.name, profile: profile.name, entries: [],
                    findings: [Finding(code: .countMismatch, path: "", message: "never passes")], selected: 0,
                    captured: selection.requests.count)
            }
        }
        struct OnlyPosts: RequestFilter {
            func accepts(_ request: CapturedRequest) -> Bool { request.method == "POST" }
        }
        try withTemporaryDirectory { directory in
            // Names no other test registers process-wide.
            let (validator, filter) = ("never-\(UUID())", "posts-\(UUID())")
            let profile = directory.appending(path: "strict-shop.json")
            try Data(#"{"swiftValidator": "\#(validator)", "filter": {"custom": "\#(filter)"}}"#.utf8).write(
                to: profile)
            let own = Workspace(
                extensions: Extensions(validators: [validator: Nothing()], filters: [filter: OnlyPosts()]))
            let check = try PreparedCheck(try screens(["home"]), file: "s.json", profile: profile.path, workspace: own)
            #expect(check.profile.filter.accepts(post("https://t.example.com/x", json: "{}")))
            #expect(!check.profile.filter.accepts(get("https://t.example.com/track?ev=home")))
            #expect(!check.validate(screenRequests(["home"])).passed)

            // Neither is registered process-wide, so a workspace without them refuses the profile, naming both.
            let error = try #require(throws: InputError.self) { try Profile.load(profile.path, workspace: Workspace()) }
            #expect(error.description.contains("no validator is registered as \"\(validator)\""))
            #expect(error.description.contains("no filter is registered as \"\(filter)\""))
            #expect(Workspace().extensions.validators["snapshot"] != nil)
        }
    }
}
