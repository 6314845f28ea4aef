import Foundation
import TracksnapJSON
import TracksnapRecording
import TracksnapSnapshot
import TracksnapValidation

/// What `accept` and `reject` share: each named snapshot (or every pending file under a
/// directory) is handled; one that fails is reported and the others are still handled.
enum PendingAction {
    static func apply(to paths: [String], _ action: (String) throws(InputError) -> String) throws {
        var failed = false
        for path in paths {
            do {
                let targets = isDirectory(path) ? try PendingSnapshot.find(in: [path]) : [path]
                if targets.isEmpty { Terminal.error("\(path): no pending snapshots (*.new.json)") }
                failed = failed || targets.isEmpty
                for target in targets {
                    do {
                        print(try action(target))
                    } catch {
                        Terminal.error(error.description)
                        failed = true
                    }
                }
            } catch {
                Terminal.error(error.description)
                failed = true
            }
        }
        if failed { throw Exit.badInput }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
