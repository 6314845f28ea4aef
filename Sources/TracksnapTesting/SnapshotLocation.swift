import Foundation
import TracksnapValidation

/// Where an assertion's snapshot file and profiles are.
enum SnapshotLocation {
    /// The snapshot's path: as given when absolute, else relative to the directory of the
    /// test file that calls the assertion (as swift-snapshot-testing places its snapshots).
    ///
    /// ```swift
    /// SnapshotLocation.resolve("Snapshots/a.json", testFile: "/p/Tests/X/ATests.swift")  // /p/Tests/X/Snapshots/a.json
    /// ```
    static func resolve(_ path: String, testFile: String) -> String {
        if path.hasPrefix("/") { return (path as NSString).standardizingPath }
        let directory = (testFile as NSString).deletingLastPathComponent
        return ((directory as NSString).appendingPathComponent(path) as NSString).standardizingPath
    }

    /// The workspace a test's snapshot is checked in: profile names are looked up in the
    /// configured directory, else in the nearest `Validators` directory above the snapshot
    /// (`Workspace.checking(_:)`). A test names any file: no root.
    static func workspace(for snapshot: String, configuration: TracksnapConfiguration) -> Workspace {
        Workspace(validators: configuration.validatorsDirectory).checking(snapshot)
    }
}
