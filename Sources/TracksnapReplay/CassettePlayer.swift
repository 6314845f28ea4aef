import Foundation
import Synchronization
public import TracksnapJSON
import TracksnapSnapshot
public import TracksnapTraffic
import TracksnapValidation

/// Answers requests from a cassette, and records into it what the record mode lets it: the
/// half of a test that makes what the app receives the same on every run.
///
/// ```swift
/// let player = try CassettePlayer(path: "Cassettes/checkout.json", mode: .missing)
/// switch player.answer(for: request) {
/// case .replay(let response): …           // recorded: served as it was
/// case .forward: …                        // send it, then player.record(request, response)
/// case .miss(let miss): print(miss)       // never: nothing goes to the network
/// }
/// ```
///
/// Record modes are the snapshots' (`RecordMode`), read for a cassette as VCR reads its own:
/// `missing` records every request when the cassette file does not exist and only replays
/// when it does (VCR's `once`); `never` only replays (`none`; CI's default); `all` records
/// every request anew into an empty cassette (`all`); `failed` replays what the cassette has
/// and records what it misses (`new_episodes`; `new` for short).
///
/// Repeated requests get the cassette's matching interactions in order; once each has been
/// played, the last one answers again when the rules allow repeats.
public final class CassettePlayer: Sendable {
    /// What to do with a request.
    public enum Decision: Sendable {
        /// Answer with what was recorded.
        case replay(Interaction.Response)
        /// Send it to the network, then hand its answer to `record(_:response:)`.
        case forward
        /// The cassette has no answer and may not record one: answer `miss.response`, and fail.
        case miss(ReplayMiss)
    }

    /// The cassette file, written as interactions are recorded: a moment after the last one
    /// (`writeDelay`), so that a burst of them is one write, and at the latest at `flush()`.
    public let path: String
    public let mode: RecordMode
    public let matching: CassetteMatching
    /// How a miss says to record what was missed.
    public let recordHint: String
    /// How a miss on an interaction already played says to let it answer again.
    public let repeatHint: String

    private struct State {
        var cassette: Cassette
        var played: [Bool]
        /// Each interaction's request as the matching rules read it, made once, with its patterns.
        var recorded: [CassetteMatching.Prepared] = []
        var patterns: [RequestPatterns] = []
        /// The interactions by method, path and query (those the rules compare; a query with
        /// matchers is left out of its key): the only ones a request can match, so that a large
        /// cassette answers in constant time.
        var candidates: [String: [Int]] = [:]
        /// The interactions by method and host, and by method: where a miss looks for its
        /// nearest first (`nearestCompared`).
        var byMethodAndHost: [String: [Int]] = [:]
        var byMethod: [String: [Int]] = [:]
        var misses: [ReplayMiss] = []
        var failures: [InputError] = []
        /// Recorded interactions not yet written, and whether a write is on its way.
        var unwritten = false
        var writeScheduled = false
        /// How many times the cassette was written, for tests.
        var writes = 0
        /// How many recorded requests answering compared a request with, for tests.
        var comparisons = 0
        /// How many interactions were recorded while the player ran, and the bytes they hold.
        var recordedCount = 0
        var recordedBytes = 0
        /// Whether a request went unrecorded because a bound was reached (told once).
        var full = false

        mutating func add(_ request: Interaction.Request, as matching: CassetteMatching) {
            let captured = request.captured
            candidates[matching.candidateKey(captured, patterns: request.patterns), default: []].append(recorded.count)
            byMethodAndHost[CassettePlayer.methodAndHost(captured), default: []].append(recorded.count)
            byMethod[captured.method.uppercased(), default: []].append(recorded.count)
            recorded.append(matching.prepare(captured))
            patterns.append(request.patterns)
        }
    }
    private let state: Mutex<State>
    /// Held while the cassette is written, so that writes happen one at a time and in order.
    private let writing = Mutex(())
    /// Whether requests the cassette lacks are recorded.
    private let records: Bool
    /// How long a recorded interaction waits for others before the cassette is written.
    private let writeDelay: Duration
    private let writeFailed: (@Sendable (InputError) -> Void)?
    /// The most interactions recorded while the player runs, or nil for no bound but the bytes.
    public let maximumRecorded: Int?
    /// The most bytes the interactions recorded while the player runs hold (`recordedBytesKept`).
    public let maximumRecordedBytes: Int

    /// The most bytes a recording holds by default: 64 MiB of URLs, headers and bodies.
    public static let recordedBytesKept = 64 * 1024 * 1024

    /// Reads the cassette at `path` (none yet is an empty one, which `missing` then records).
    ///
    /// - Parameters:
    ///   - path: the cassette file: tracksnap's format, DVR, Vinyl, VCR, vcrpy or HAR.
    ///   - mode: what may be recorded.
    ///   - matching: the rules; by default those of the tool whose format the file is in.
    ///   - allowingRepeats: let an interaction already played answer again, where the rules
    ///     play each once (`CassetteMatching.allowingRepeats`).
    ///   - recordHint: how a miss says to record what was missed.
    ///   - repeatHint: how a miss on an interaction already played (under rules that play each
    ///     once, VCR's) says to let it answer again.
    ///   - writeDelay: how long a recorded interaction waits for others before the cassette is
    ///     written (each write is of the whole cassette).
    ///   - writeFailed: told when the cassette cannot be written, or a request was not recorded
    ///     because a bound was reached (the failure is among `problems` too).
    ///   - maximumRecorded: the most interactions recorded while the player runs (a server's
    ///     `--max-requests`); nil for no bound but the bytes.
    ///   - maximumRecordedBytes: the most bytes (URLs, headers, bodies) the interactions
    ///     recorded while the player runs hold. The whole cassette sits in memory and is
    ///     rewritten whole: once a bound is reached, further requests are forwarded but not
    ///     recorded, and the recording says so, once, among `problems`.
    /// - Throws: `InputError` for a cassette that cannot be read, or that is not there in mode `never`.
    public init(
        path: String, mode: RecordMode, matching: CassetteMatching? = nil, allowingRepeats: Bool = false,
        recordHint: String = "run again with TRACKSNAP_RECORD=failed (records what the cassette lacks)",
        repeatHint: String = "matching: CassetteMatching.vcr.allowingRepeats (as vcrpy's allow_playback_repeats)",
        writeDelay: Duration = .milliseconds(200), writeFailed: (@Sendable (InputError) -> Void)? = nil,
        maximumRecorded: Int? = nil, maximumRecordedBytes: Int = CassettePlayer.recordedBytesKept
    ) throws(InputError) {
        self.maximumRecorded = maximumRecorded
        self.maximumRecordedBytes = maximumRecordedBytes
        let exists = FileManager.default.fileExists(atPath: path)
        // Never records: a cassette not there (a typo, a folder not committed) would answer every
        // request 599 with "the cassette is empty".
        guard exists || mode != .never else {
            throw InputError(
                file: path,
                message:
                    "no such cassette: record mode never only replays what was recorded; record it first (\(recordHint))"
            )
        }
        var cassette =
            exists && mode != .all
            ? try Cassette.read(path: path).cassette
            : Cassette(
                name: URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent, format: .tracksnap,
                interactions: [])
        self.path = path
        self.mode = mode
        let matching = matching ?? cassette.format.matching
        self.matching = allowingRepeats ? matching.allowingRepeats : matching
        self.recordHint = recordHint
        self.repeatHint = repeatHint
        self.writeDelay = writeDelay
        self.writeFailed = writeFailed
        records = mode == .all || mode == .failed || (mode == .missing && !exists)
        if cassette.format == .har {
            // HAR holds every body decoded (HAR 1.2: "the HTTP response is decoded"), whatever
            // Content-Encoding it kept: served as the bytes they are.
            for index in cassette.interactions.indices {
                cassette.interactions[index].response.headers.removeAll { $0.name.lowercased() == "content-encoding" }
            }
        }
        var state = State(cassette: cassette, played: Array(repeating: false, count: cassette.interactions.count))
        for interaction in cassette.interactions {
            var request = interaction.request
            // Another tool's cassette holds its secrets as recorded: hidden here as in a request
            // asked (tracksnap's own never held them), so that the same request matches.
            if cassette.format != .tracksnap {
                request = Interaction.Request(
                    Redactor(requests: [request.captured]).keepingPersonalData.redact(request.captured))
            }
            state.add(request, as: self.matching)
        }
        self.state = Mutex(state)
    }

    /// What to do with a request: replay, forward (to record), or miss. The request is compared
    /// with its secrets hidden, as the cassette holds them.
    /// - Parameters:
    ///   - request: the request.
    ///   - ignoringOrigin: compare no scheme, host or port: a reverse proxy's cassette,
    ///     recorded against one backend, replays in front of another.
    public func answer(for request: CapturedRequest, ignoringOrigin: Bool = false) -> Decision {
        switch lookup(for: request, ignoringOrigin: ignoringOrigin) {
        case .decided(let decision): decision
        case .later(let work): work.decide()
        }
    }

    /// What a lookup found: the decision, when it took little work; or the work still to do,
    /// the part of answering that grows with the cassette, for the caller to run where it
    /// holds up nothing else (a server: off its event loop).
    package enum Lookup: Sendable {
        case decided(Decision)
        case later(LaterLookup)
    }

    /// A lookup's work still to do: `decide()` finishes it.
    package struct LaterLookup: Sendable {
        package let decide: @Sendable () -> Decision
    }

    /// `answer(for:ignoringOrigin:)` in two parts. Decided at once: a request compared with at
    /// most `inlineCompared` recorded ones (those of its method, path and query) that one of
    /// them answers, or that is forwarded to be recorded. Left for later: a miss, whose nearest
    /// interactions are still to be found (among at most `nearestCompared`), and a request
    /// with more candidates than `inlineCompared` (many interactions of one method, path and
    /// query, as a GraphQL endpoint's).
    package func lookup(for request: CapturedRequest, ignoringOrigin: Bool = false) -> Lookup {
        // `all` records every request anew, a repeated one too.
        if mode == .all { return .decided(.forward) }
        let request = Redactor(requests: [request]).keepingPersonalData.redact(request)
        var rules = matching
        if ignoringOrigin { rules.fields.removeAll { [.scheme, .host, .port].contains($0) } }
        let matching = rules
        let asked = matching.prepare(request)
        let keys = matching.candidateKeys(request)
        let missed = { @Sendable [self] (played: [Int]) -> Decision in
            .miss(miss(request, asked, played: played, ignoringOrigin: ignoringOrigin, matching: matching))
        }
        let many = state.withLock { state in keys.reduce(0) { $0 + (state.candidates[$1]?.count ?? 0) } }
        if many > Self.inlineCompared {
            return .later(
                LaterLookup { [self] in
                    switch match(asked, keys: keys, matching: matching) {
                    case .decided(let decision): decision
                    case .missed(let played): missed(played)
                    }
                })
        }
        switch match(asked, keys: keys, matching: matching) {
        case .decided(let decision): return .decided(decision)
        case .missed(let played): return .later(LaterLookup { missed(played) })
        }
    }

    /// The most recorded interactions `lookup` compares a request with before it leaves the
    /// comparing for later.
    package static let inlineCompared = 100

    /// What comparing a request with its candidates found.
    private enum Matched {
        case decided(Decision)
        /// No interaction answers: those that match but were played already.
        case missed([Int])
    }

    /// Compares a request with the interactions of its method, path and query, and takes the
    /// first that answers it.
    private func match(_ asked: CassetteMatching.Prepared, keys: Set<String>, matching: CassetteMatching) -> Matched {
        state.withLock { state in
            let candidates = keys.flatMap { state.candidates[$0] ?? [] }
            state.comparisons += candidates.count
            let (recorded, patterns) = (state.recorded, state.patterns)
            let matches = candidates.sorted().filter {
                matching.matches(asked, recorded[$0], patterns: patterns[$0])
            }
            if let next = matches.first(where: { !state.played[$0] }) ?? (matching.repeats ? matches.last : nil) {
                state.played[next] = true
                return .decided(.replay(state.cassette.interactions[next].response))
            }
            return records ? .decided(.forward) : .missed(matches)
        }
    }

    /// The miss of a request no interaction answers, with its nearest interactions: looked for
    /// outside the lock (a miss on a large cassette holds up no other request), among at most
    /// `nearestCompared`.
    private func miss(
        _ request: CapturedRequest, _ asked: CassetteMatching.Prepared, played: [Int], ignoringOrigin: Bool,
        matching: CassetteMatching
    ) -> ReplayMiss {
        // Copies that share the arrays' storage: taken in constant time.
        let (recorded, patterns, byMethodAndHost, byMethod) = state.withLock {
            ($0.recorded, $0.patterns, $0.byMethodAndHost, $0.byMethod)
        }
        let nearby = Self.nearby(
            request, ignoringOrigin: ignoringOrigin, byMethodAndHost: byMethodAndHost, byMethod: byMethod,
            count: recorded.count)
        var miss = ReplayMiss(
            request: request, nearest: nearest(asked, nearby, recorded, patterns, matching), cassette: path,
            mode: mode, recordHint: recordHint, played: played, repeatHint: repeatHint)
        if nearby.count < recorded.count { miss.compared = .init(among: nearby.count, of: recorded.count) }
        // What a miss says reaches the app, the log, the journal and reports: its personal data
        // masked there, as everywhere but in the cassette (which compares it).
        let nearestRecorded = state.withLock { state in
            miss.nearest.map { state.cassette.interactions[$0.index].request.captured }
        }
        let masking = Redactor(requests: [request] + nearestRecorded)
        miss.request = masking.redact(request)
        for index in miss.nearest.indices {
            miss.nearest[index].request = masking.redact(text: miss.nearest[index].request)
            miss.nearest[index].differences = miss.nearest[index].differences.map(masking.redact(text:))
        }
        state.withLock { $0.misses.append(miss) }
        return miss
    }

    /// The most recorded interactions a miss compares the request with to find its nearest.
    public static let nearestCompared = 1_000

    /// The interactions a miss compares the request with: those of its method and host first,
    /// then of its method, then the rest, at most `nearestCompared`, in the cassette's order
    /// within each.
    private static func nearby(
        _ request: CapturedRequest, ignoringOrigin: Bool, byMethodAndHost: [String: [Int]],
        byMethod: [String: [Int]], count: Int
    ) -> [Int] {
        if count <= nearestCompared { return Array(0..<count) }
        var chosen: [Int] = []
        var seen = Set<Int>()
        func take(_ indices: some Sequence<Int>) {
            for index in indices {
                guard chosen.count < nearestCompared else { return }
                if seen.insert(index).inserted { chosen.append(index) }
            }
        }
        if !ignoringOrigin { take(byMethodAndHost[methodAndHost(request)] ?? []) }
        take(byMethod[request.method.uppercased()] ?? [])
        take(0..<count)
        return chosen.sorted()
    }

    /// `METHOD host[:port]`, the host lowercased: where a miss looks for its nearest first.
    static func methodAndHost(_ request: CapturedRequest) -> String {
        let url = request.url
        var authority = Substring(url)
        if let scheme = url.range(of: "://") { authority = url[scheme.upperBound...] }
        authority = authority.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        return request.method.uppercased() + " " + authority.lowercased()
    }

    /// Adds what the network answered to the cassette, as a recording keeps it
    /// (`Interaction.recorded`: a gzip'd body decoded, the secrets of both hidden, every copy of
    /// one in the other, as a token the login answered and the next request sends back). The
    /// cassette is written, whole or not at all, `writeDelay` later with whatever else was
    /// recorded meanwhile, or at `flush()`.
    public func record(_ request: CapturedRequest, response: Interaction.Response) {
        let recorded = Interaction(
            request: Interaction.Request(request), response: response, recordedAt: Date().timeIntervalSince1970
        ).recorded(decodingUpTo: maximumRecordedBytes)
        let asked = recorded.request
        let size = Self.size(asked.captured) + Self.size(recorded.response)
        let (schedule, full) = state.withLock { state -> (Bool, InputError?) in
            if state.recordedCount >= maximumRecorded ?? Int.max || state.recordedBytes + size > maximumRecordedBytes {
                if state.full { return (false, nil) }
                state.full = true
                let bound =
                    state.recordedCount >= maximumRecorded ?? Int.max
                    ? "\(state.recordedCount) interactions (the most a recording holds: --max-requests)"
                    : "\(state.recordedBytes / (1024 * 1024)) MiB (a recording holds at most \(maximumRecordedBytes / (1024 * 1024)) MiB)"
                let error = InputError(
                    file: path,
                    message:
                        "the recording is full at \(bound): \(request.method) \(request.url) and the requests after it were forwarded but not recorded; record fewer requests per cassette"
                )
                state.failures.append(error)
                return (false, error)
            }
            state.recordedCount += 1
            state.recordedBytes += size
            state.cassette.interactions.append(recorded)
            state.played.append(true)
            state.add(asked, as: matching)
            state.unwritten = true
            defer { state.writeScheduled = true }
            return (!state.writeScheduled, nil)
        }
        if let full { writeFailed?(full) }
        guard schedule else { return }
        // On a Dispatch queue, not a task: the write blocks on the file, and a busy cooperative
        // pool would hold it back.
        let (seconds, attoseconds) = writeDelay.components
        DispatchQueue.global(qos: .utility).asyncAfter(
            deadline: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        ) { [self] in flush() }
    }

    /// Writes what was recorded and is not written yet, now: when the server stops, a session
    /// ends or a test's capture is done. A failure is among `problems`, and told `writeFailed`.
    public func flush() {
        writing.withLock { _ in
            let cassette = state.withLock { state -> Cassette? in
                state.writeScheduled = false
                guard state.unwritten else { return nil }
                state.unwritten = false
                state.writes += 1
                return state.cassette
            }
            do throws(InputError) {
                try cassette?.write(to: path)
            } catch {
                // Still unwritten: the next write tries again.
                state.withLock {
                    $0.unwritten = true
                    $0.failures.append(error)
                }
                writeFailed?(error)
            }
        }
    }

    /// About the bytes a request (or an answer as one) holds: its URL, headers and body.
    private static func size(_ request: CapturedRequest) -> Int {
        request.headers.reduce(request.url.utf8.count + (request.bodyBytes?.count ?? 0)) {
            $0 + $1.name.utf8.count + $1.value.utf8.count
        }
    }

    private static func size(_ response: Interaction.Response) -> Int {
        size(CapturedRequest(id: "", method: "", url: "", headers: response.headers, body: response.body?.captured))
    }

    /// How many times the cassette was written.
    package var writes: Int { state.withLock { $0.writes } }

    /// How many recorded requests answering has compared requests with, all told.
    package var comparisons: Int { state.withLock { $0.comparisons } }

    /// The requests the cassette had no answer for, in order.
    public var misses: [ReplayMiss] { state.withLock { $0.misses } }

    /// What went wrong while replaying, for a test to fail on: every miss, and every answer
    /// that could not be written to the cassette. Empty when all went well.
    public var problems: [String] {
        state.withLock { $0.misses.map(\.description) + $0.failures.map(\.description) }
    }

    /// The recorded interactions closest to a request, among `indices`: fewest differences
    /// first, at most three.
    private func nearest(
        _ request: CassetteMatching.Prepared, _ indices: [Int], _ recorded: [CassetteMatching.Prepared],
        _ patterns: [RequestPatterns], _ matching: CassetteMatching
    ) -> [ReplayMiss.Near] {
        indices
            .map {
                ReplayMiss.Near(
                    index: $0, request: "\(recorded[$0].request.method) \(recorded[$0].request.url)",
                    differences: matching.differences(request, recorded[$0], patterns: patterns[$0]))
            }
            .sorted { ($0.differences.count, $0.index) < ($1.differences.count, $1.index) }
            .prefix(3).map { $0 }
    }
}

/// A request a cassette had no answer for, and why: what the test's failure and the proxy's
/// 5xx say.
public struct ReplayMiss: Sendable, Hashable, CustomStringConvertible {
    /// A recorded interaction near the request, and how it differs.
    public struct Near: Sendable, Hashable {
        /// Its place in the cassette (0-based).
        public var index: Int
        /// `METHOD URL`.
        public var request: String
        public var differences: [String]
    }

    public var request: CapturedRequest
    public var nearest: [Near]
    public var cassette: String
    public var mode: RecordMode
    /// How to record what was missed.
    public var recordHint: String
    /// The interactions (0-based) that match the request but were played already, under rules
    /// that play each once (VCR's); empty when none matches.
    public var played: [Int] = []
    /// How to let an interaction already played answer again.
    public var repeatHint: String = ""
    /// How many interactions the nearest were looked for among, of how many, when not all
    /// (`CassettePlayer.nearestCompared`: those of the request's method and host first).
    public var compared: Compared?

    /// How many interactions the nearest were looked for among, of how many.
    public struct Compared: Sendable, Hashable {
        public var among: Int
        public var of: Int
    }

    /// Says which interactions the nearest were looked for among, when not all.
    private var comparedNote: String? {
        compared.map {
            "the nearest were looked for among \($0.among) of the cassette's \($0.of) interactions: those of the same method and host first"
        }
    }

    /// The answer the app gets: 599 is no status a backend sends, so a test that goes on
    /// fails where it reads it; the body is this description.
    public var response: Interaction.Response {
        Interaction.Response(
            status: 599, headers: [.init(name: "Content-Type", value: "text/plain; charset=utf-8")],
            body: .text(description))
    }

    /// The same as JSON, for a proxy's answer: `error` (the first line), `request`,
    /// `nearest` (each with `interaction`, 1-based, `request` and `differences`) and `record`.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "error": .string(headline),
            "request": .string("\(request.method) \(request.url)"),
            "nearest": .array(
                nearest.map { near in
                    .object([
                        "interaction": .number(String(near.index + 1)), "request": .string(near.request),
                        "differences": .array(near.differences.map(JSONValue.string)),
                    ])
                }),
            "record": .string(recordHint),
        ]
        if let comparedNote { members["compared"] = .string(comparedNote) }
        if !played.isEmpty {
            members["played"] = .array(played.map { .number(String($0 + 1)) })
            members["repeat"] = .string(repeatHint)
        }
        return .object(members)
    }

    private var headline: String {
        "\(cassette): no recorded answer for \(request.method) \(request.url) (record mode \(mode.rawValue))"
    }

    public var description: String { lines.joined(separator: "\n") }

    /// `description`'s lines: a log that makes each line's control characters visible (a body
    /// quoted in a difference may hold a newline) prints them one by one.
    package var lines: [String] {
        var lines = [headline]
        if !played.isEmpty {
            let which = played.map { String($0 + 1) }.joined(separator: ", ")
            lines.append(
                "  already played: interaction \(which) matches, and these rules play each interaction once (VCR's)")
            lines.append("  allow repeats with \(repeatHint)")
        } else if nearest.isEmpty {
            lines.append("  the cassette is empty")
        }
        for near in nearest {
            lines.append("  nearest: interaction \(near.index + 1), \(near.request)")
            lines += near.differences.map { "    differs in \($0)" }
        }
        if let comparedNote { lines.append("  \(comparedNote)") }
        lines.append("  to record it: \(recordHint)")
        return lines
    }
}

extension Interaction.Request {
    /// A captured request as a cassette records it: a JSON body as JSON (it is matched by its
    /// meaning, and never served), text as text, anything else as bytes.
    public init(_ request: CapturedRequest) {
        self.init(
            method: request.method, url: request.url, headers: request.headers,
            body: Interaction.Body(
                bytes: request.bodyBytes ?? [], contentType: request.header("Content-Type"), servedAsIs: false))
    }
}

extension Interaction.Response {
    /// An answer as a cassette records it, so that it is served byte for byte as it came.
    public init(status: Int, headers: [CapturedRequest.Header], bytes: [UInt8]) {
        let contentType = headers.first { $0.name.lowercased() == "content-type" }?.value
        self.init(
            status: status, headers: headers,
            body: Interaction.Body(bytes: bytes, contentType: contentType, servedAsIs: true))
    }
}

extension Interaction.Body {
    /// Bytes as a cassette stores them: JSON as JSON when the content type says JSON (for what
    /// is `servedAsIs`, an answer, only when serializing it gives back these very bytes, as
    /// compact JSON does, so that playback is byte for byte what was recorded); otherwise text
    /// when they are UTF-8, else bytes. Nil for no bytes.
    public init?(bytes: [UInt8], contentType: String?, servedAsIs: Bool) {
        if bytes.isEmpty { return nil }
        let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        if type?.hasSuffix("json") == true,
            let value = try? JSONDocument.parse(bytes, file: "", trackLocations: false).value,
            !servedAsIs || Array(value.serialized().utf8) == bytes
        {
            self = .json(value)
        } else if let text = String(validating: bytes, as: UTF8.self) {
            self = .text(text)
        } else {
            self = .binary(bytes)
        }
    }
}

extension RecordMode {
    /// A record mode for a cassette by its name or VCR's: `once` is `missing`, `none` is
    /// `never`, `new_episodes` (or `new`) is `failed`; nil for another word.
    ///
    /// ```swift
    /// RecordMode(cassette: "new_episodes")  // .failed
    /// ```
    package init?(cassette name: String) {
        switch name.lowercased() {
        case "once": self = .missing
        case "none": self = .never
        case "new_episodes", "new": self = .failed
        default: self.init(rawValue: name.lowercased())
        }
    }

    /// The names `init(cassette:)` takes, for messages.
    package static let cassetteNames = allCases.map(\.rawValue) + ["once", "none", "new_episodes", "new"]
}
