// Run with `make bench` (a release build): every figure is measured in this one run, beside
// the peer it is compared with.
let arguments = Set(CommandLine.arguments.dropFirst())
if arguments.isEmpty || arguments.contains("patterns") { runPatternBenchmark() }
if arguments.isEmpty || arguments.contains("validation") { runValidationBenchmark() }
if arguments.isEmpty || arguments.contains("decoding") { runDecodingBenchmark() }
