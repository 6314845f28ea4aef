import Foundation

// Run with `make bench` (a release build): every figure is measured in this one run, beside
// the peer it is compared with. `plan PLAN EVENTS` is `make bench-plan`'s part (Benchmarks/plan.sh),
// which measures the Python peers on the same files; `firebase BODIES` is `make bench-firebase`'s
// (Benchmarks/firebase.sh), beside Python's bbpb.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "plan" {
    guard arguments.count == 3 else {
        print("usage: TracksnapBenchmarks plan PLAN EVENTS")
        exit(2)
    }
    exit(runPlanBenchmark(planPath: arguments[1], eventsPath: arguments[2]) ? 0 : 1)
}
if arguments.first == "firebase" {
    guard arguments.count == 2 else {
        print("usage: TracksnapBenchmarks firebase BODIES")
        exit(2)
    }
    exit(runFirebaseBenchmark(path: arguments[1]) ? 0 : 1)
}
if arguments.isEmpty || arguments.contains("patterns") { runPatternBenchmark() }
if arguments.isEmpty || arguments.contains("validation") { runValidationBenchmark() }
if arguments.isEmpty || arguments.contains("decoding") { runDecodingBenchmark() }
if arguments.isEmpty || arguments.contains("events-wait") { runEventsWaitBenchmark() }
if arguments.isEmpty || arguments.contains("log-line") { runLogLineBenchmark() }
