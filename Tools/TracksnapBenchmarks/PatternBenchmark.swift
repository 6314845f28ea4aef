import CPCRE2Baseline
import Foundation
import Patterns

/// Times a full match of analytics URL patterns with tracksnap's `Pattern`, raw
/// `pcre2_jit_match` called from C (what `Pattern` adds on top of PCRE2), Foundation's
/// `NSRegularExpression` and Swift's `Regex`, checks that all agree, and prints a table.
///
/// ```swift
/// runPatternBenchmark()
/// ```
func runPatternBenchmark() {
    let sources = PatternWorkload.sources
    let subjects = PatternWorkload.subjects(count: 10_000)
    let matchesPerPass = sources.count * subjects.count

    let patterns: [Pattern]
    let nsExpressions: [NSRegularExpression]
    let regexes: [Regex<AnyRegexOutput>]
    do {
        patterns = try sources.map { try Pattern($0) }
        // `$` alone also matches before a final newline: the range check makes it a full match.
        nsExpressions = try sources.map { try NSRegularExpression(pattern: "^(?:\($0))$") }
        regexes = try sources.map { try Regex($0) }
    } catch {
        print("pattern benchmark: cannot compile the workload: \(error)")
        return
    }

    // Each engine writes one verdict per (pattern, subject) pair, pattern-major.
    // Subjects are borrowed from the array in place, as the C loop reads them: iterating with
    // `for subject in subjects` would retain and release each one around its match.
    func runPattern(_ verdicts: inout [Bool]) {
        var index = 0
        subjects.withUnsafeBufferPointer { subjects in
            for pattern in patterns {
                for i in subjects.indices {
                    verdicts[index] = (try? pattern.matches(subjects[i])) ?? false
                    index += 1
                }
            }
        }
    }
    func runCachedPattern(_ verdicts: inout [Bool]) {
        var index = 0
        for source in sources {
            for subject in subjects {
                verdicts[index] = (try? Pattern.cached(source).matches(subject)) ?? false
                index += 1
            }
        }
    }
    func runNSRegularExpression(_ verdicts: inout [Bool]) {
        var index = 0
        for expression in nsExpressions {
            for subject in subjects {
                let whole = NSRange(location: 0, length: subject.utf16.count)
                let match = expression.firstMatch(in: subject, options: .anchored, range: whole)
                verdicts[index] = match.map { NSEqualRanges($0.range, whole) } ?? false
                index += 1
            }
        }
    }
    func runRegex(_ verdicts: inout [Bool]) {
        var index = 0
        for regex in regexes {
            for subject in subjects {
                verdicts[index] = (try? regex.wholeMatch(in: subject)) != nil
                index += 1
            }
        }
    }

    // The C peer gets the subjects as it would from C: one buffer, pointers and lengths.
    let bytes = subjects.map { Array($0.utf8) }
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.reduce(0) { $0 + $1.count })
    defer { buffer.deallocate() }
    var starts: [UnsafePointer<UInt8>?] = []
    var offset = 0
    for subject in bytes {
        (buffer + offset).initialize(from: subject, count: subject.count)
        starts.append(UnsafePointer(buffer + offset))
        offset += subject.count
    }
    let lengths = bytes.map(\.count)
    let cSources = sources.map { strdup($0) }
    defer { for source in cSources { free(source) } }
    guard
        let baseline = cSources.map({ UnsafePointer($0) }).withUnsafeBufferPointer({
            cpcre2_baseline_create($0.baseAddress, $0.count)
        })
    else {
        print("pattern benchmark: PCRE2 cannot JIT-compile the workload from C")
        return
    }
    defer { cpcre2_baseline_free(baseline) }
    func runRawPCRE2(_ verdicts: inout [Bool]) {
        verdicts.withUnsafeMutableBytes { raw in
            _ = cpcre2_baseline_run(
                baseline, starts, lengths, subjects.count, raw.bindMemory(to: UInt8.self).baseAddress)
        }
    }

    let engines: [(name: String, run: (inout [Bool]) -> Void)] = [
        ("tracksnap Pattern (PCRE2 JIT)", runPattern),
        ("pcre2_jit_match from C", runRawPCRE2),
        ("tracksnap Pattern.cached per match", runCachedPattern),
        ("NSRegularExpression", runNSRegularExpression),
        ("Swift Regex (wholeMatch)", runRegex),
    ]
    // Rounds alternate the engines, and each engine's fastest round counts: a neighbour's burst
    // of work on a shared machine then slows one round, not one engine's whole figure.
    var timings: [(name: String, nanosecondsPerMatch: Double, passes: Int, verdicts: [Bool])] = engines.map {
        ($0.name, .infinity, 0, [])
    }
    for _ in 1...5 {
        for (index, engine) in engines.enumerated() {
            let (nanoseconds, passes, verdicts) = measure(matchesPerPass: matchesPerPass, engine.run)
            timings[index].passes += passes
            timings[index].verdicts = verdicts
            timings[index].nanosecondsPerMatch = min(timings[index].nanosecondsPerMatch, nanoseconds)
        }
    }

    let reference = timings[0].verdicts
    let matching = reference.filter { $0 }.count
    print(
        "Pattern benchmark: \(sources.count) URL patterns × \(subjects.count) URLs",
        "= \(matchesPerPass) full matches a pass, \(matching) of them matching")
    print(
        pad("engine", 38) + pad("ns/match", 12, right: true) + pad("passes", 8, right: true)
            + pad("mismatches", 12, right: true))
    for timing in timings {
        let mismatches = zip(reference, timing.verdicts).filter { $0 != $1 }.count
        print(
            pad(timing.name, 38) + pad(format(timing.nanosecondsPerMatch), 12, right: true)
                + pad("\(timing.passes)", 8, right: true) + pad("\(mismatches)", 12, right: true))
    }
    let pattern = timings[0].nanosecondsPerMatch
    print("Pattern / pcre2_jit_match from C: \(format(pattern / timings[1].nanosecondsPerMatch))x")
    print("NSRegularExpression / Pattern: \(format(timings[3].nanosecondsPerMatch / pattern))x")
    print("Regex / Pattern: \(format(timings[4].nanosecondsPerMatch / pattern))x")
}

/// Runs one warm-up pass, then passes until about a fifth of a second has gone.
private func measure(
    matchesPerPass: Int, _ run: (inout [Bool]) -> Void
) -> (nanosecondsPerMatch: Double, passes: Int, verdicts: [Bool]) {
    var verdicts = [Bool](repeating: false, count: matchesPerPass)
    run(&verdicts)
    let clock = ContinuousClock()
    let budget = Duration.milliseconds(200)
    var passes = 0
    let start = clock.now
    var elapsed = Duration.zero
    repeat {
        run(&verdicts)
        passes += 1
        elapsed = clock.now - start
    } while elapsed < budget
    let (seconds, attoseconds) = elapsed.components
    let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    return (nanoseconds / Double(passes * matchesPerPass), passes, verdicts)
}

private func format(_ value: Double) -> String {
    String(format: "%.1f", value)
}

private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return right ? padding + text : text + padding
}

/// Analytics URL patterns as a snapshot or a profile writes them, and URLs to match them with.
private enum PatternWorkload {
    static let sources = [
        #"https://www\.google-analytics\.com/g/collect"#,
        #"https://(www|region1)\.google-analytics\.com/mp/collect"#,
        #"https://api\.segment\.io/v1/(batch|track|page|identify|screen)"#,
        #"https://[a-z0-9.-]+/tracks/[0-9]+"#,
        #"https://api(-js)?\.mixpanel\.com/(track|engage|import)/?"#,
        #"https://api2?\.amplitude\.com/(2/httpapi|batch)"#,
        #"https://[a-z0-9-]+\.snowplowanalytics\.com/com\.snowplowanalytics\.snowplow/tp2"#,
        #"https://(eu|us|app)\.posthog\.com/(e|batch|capture)/?"#,
        #"https://www\.facebook\.com/tr/?"#,
        #"https://[a-z0-9.-]+\.example\.com/v[0-9]+/events/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"#,
    ]

    /// A deterministic mix: URLs each pattern matches, near misses, and unrelated traffic.
    static func subjects(count: Int) -> [String] {
        var random = SplitMix64(seed: 0x7472_6163_6B73_6E61)
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        func hex(_ length: Int) -> String {
            String((0..<length).map { _ in pick(Array("0123456789abcdef")) })
        }
        func number() -> String { String(random.next() % 1_000_000) }
        func host() -> String {
            pick(["cdn", "api", "events", "eu-1", "t"]) + "." + pick(["acme", "shop", "news"])
        }
        let makers: [() -> String] = [
            { "https://www.google-analytics.com/g/collect" },
            { "https://\(pick(["www", "region1"])).google-analytics.com/mp/collect" },
            { "https://api.segment.io/v1/\(pick(["batch", "track", "page", "identify", "screen"]))" },
            { "https://\(host()).io/tracks/\(number())" },
            {
                "https://api\(pick(["", "-js"])).mixpanel.com/\(pick(["track", "engage", "import"]))\(pick(["", "/"]))"
            },
            { "https://api\(pick(["", "2"])).amplitude.com/\(pick(["2/httpapi", "batch"]))" },
            {
                "https://\(pick(["acme", "collector-1"])).snowplowanalytics.com/com.snowplowanalytics.snowplow/tp2"
            },
            { "https://\(pick(["eu", "us", "app"])).posthog.com/\(pick(["e", "batch", "capture"]))/" },
            { "https://www.facebook.com/tr\(pick(["", "/"]))" },
            {
                "https://\(host()).example.com/v\(random.next() % 5)/events/"
                    + "\(hex(8))-\(hex(4))-\(hex(4))-\(hex(4))-\(hex(12))"
            },
        ]
        let nearMisses: [() -> String] = [
            { "https://www.google-analytics.com/g/collect/extra" },
            { "http://api.segment.io/v1/track" },
            { "https://api.segment.io/v2/track" },
            { "https://\(host()).io/tracks/\(number())x" },
            { "https://api.mixpanel.com/decide" },
            { "https://\(pick(["eu", "us"])).posthog.com/decide/" },
            { "https://www.facebook.com/tr/x" },
            { "https://\(host()).example.com/v1/events/\(hex(8))-\(hex(4))" },
        ]
        let unrelated: [() -> String] = [
            { "https://\(host()).com/static/js/app.\(hex(8)).js" },
            { "https://images.\(host()).net/\(number())/\(hex(16)).png" },
            { "https://fonts.googleapis.com/css2?family=Inter" },
            { "https://\(host()).com/api/v2/users/\(number())/cart" },
        ]
        return (0..<count).map { _ in
            switch random.next() % 10 {
            case 0..<5: pick(makers)()
            case 5..<7: pick(nearMisses)()
            default: pick(unrelated)()
            }
        }
    }
}

/// A small seeded generator, so every run matches the same URLs.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
