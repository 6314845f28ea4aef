#if FUZZING
    import CLibFuzzer
    import Foundation
    import TracksnapFuzzing

    /// The target `TRACKSNAP_FUZZ` names, chosen once: libFuzzer calls back for every input.
    private let target: FuzzTarget? = FuzzTarget.named(ProcessInfo.processInfo.environment["TRACKSNAP_FUZZ"] ?? "")

    /// Built with `-sanitize=fuzzer,address -DFUZZING`: libFuzzer runs the target `TRACKSNAP_FUZZ`
    /// names, with libFuzzer's own arguments (`-max_total_time=60 CORPUS…`). `TRACKSNAP_FUZZ=list`
    /// prints each target's name and seed folders, one a line, for `make fuzz`.
    @main
    enum LibFuzzerEntry {
        static func main() {
            if ProcessInfo.processInfo.environment["TRACKSNAP_FUZZ"] == "list" {
                for target in FuzzTarget.all { print(([target.name] + target.seeds).joined(separator: " ")) }
                return
            }
            guard target != nil else {
                let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
                FileHandle.standardError.write(Data("error: set TRACKSNAP_FUZZ to one of: \(names) (or list)\n".utf8))
                exit(2)
            }
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
        }
    }

    /// One input. `-sanitize=fuzzer` links all of libFuzzer, whose `main` (unused: SwiftPM's `main`
    /// comes first) calls this by name, so it is exported under that name too.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        do {
            try target?.run(input)
        } catch {
            // A broken property aborts, so libFuzzer keeps the input as a crash.
            FileHandle.standardError.write(Data("property violated: \(error)\n".utf8))
            abort()
        }
        return 0
    }
#endif
