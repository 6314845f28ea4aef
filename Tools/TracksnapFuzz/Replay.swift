#if !FUZZING
    import Foundation
    import TracksnapFuzzing

    /// Without libFuzzer (`swift build`), the fuzz executable replays inputs through a target:
    /// a crash found by `make fuzz`, or a whole corpus.
    ///
    /// ```
    /// $ swift run TracksnapFuzz json Tests/Fuzz/json
    /// json: 12 inputs, no property violated
    /// ```
    @main
    enum Replay {
        static func main() {
            let arguments = Array(CommandLine.arguments.dropFirst())
            if arguments.first == "--list" {
                for target in FuzzTarget.all {
                    print("\(target.name)\t\(target.seeds.joined(separator: " "))\t\(target.summary)")
                }
                return
            }
            guard let name = arguments.first, let target = FuzzTarget.named(name), arguments.count > 1 else {
                let names = FuzzTarget.all.map(\.name).joined(separator: "|")
                fail("usage: TracksnapFuzz (\(names)) FILE-OR-DIRECTORY...\n       TracksnapFuzz --list", status: 2)
            }
            var count = 0
            var violations = 0
            for path in arguments.dropFirst() {
                for file in files(at: path) {
                    guard let data = FileManager.default.contents(atPath: file) else {
                        fail("error: cannot read \(file)", status: 2)
                    }
                    count += 1
                    do {
                        try target.run(Array(data))
                    } catch {
                        violations += 1
                        FileHandle.standardError.write(Data("\(file): \(error)\n".utf8))
                    }
                }
            }
            print(
                "\(target.name): \(count) inputs, \(violations == 0 ? "no property violated" : "\(violations) violated a property")"
            )
            if violations > 0 { exit(1) }
        }

        /// The file itself, or every regular file under the directory, sorted.
        private static func files(at path: String) -> [String] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                fail("error: no such file \(path)", status: 2)
            }
            guard isDirectory.boolValue else { return [path] }
            let enumerator = FileManager.default.enumerator(atPath: path)
            return (enumerator?.allObjects as? [String] ?? [])
                .map { "\(path)/\($0)" }
                .filter {
                    var directory: ObjCBool = false
                    return FileManager.default.fileExists(atPath: $0, isDirectory: &directory) && !directory.boolValue
                }
                .sorted()
        }

        private static func fail(_ message: String, status: Int32) -> Never {
            FileHandle.standardError.write(Data("\(message)\n".utf8))
            exit(status)
        }
    }
#endif
