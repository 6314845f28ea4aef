import ArgumentParser
import Dispatch
import Foundation
import Synchronization
import TracksnapCommandLine
import TracksnapJSON
import TracksnapReplay
import TracksnapReports
import TracksnapServer
import TracksnapSnapshot
import TracksnapTraffic

struct Serve: CheckedCommand {
    static let configuration = CommandConfiguration(
        abstract: "Capture analytics traffic: a collector, reverse proxy and forward proxy with a control API.",
        discussion: """
            Prints "listening on http://HOST:PORT" first. Without --upstream it answers every request \
            itself (200 {"code":200,"status":1}); with --upstream URL it forwards there; absolute-form requests and CONNECT \
            (curl -x, http_proxy) are forwarded to their target. The control API is under \
            /__tracksnap/. Serving what it did not write (--upstream, --cassette, --intercept) without a \
            token, it makes one for browsers and prints the inspector's address with it on stderr. Then one line per captured request on stderr (time, session or -, method, \
            URL, status; a request no open session got says why), unless --quiet. SIGINT or SIGTERM \
            stop it within half a second, whatever clients hold open, the journal complete (exit 0).

            HTTPS: --intercept PATTERN… decrypts CONNECT tunnels to the hosts named (all, analytics for the \
            vendors' own domains, *.DOMAIN, or a host), answering the client with certificates signed by the \
            CA `tracksnap ca` made; the requests inside (HTTP/1.1 or HTTP/2) are recorded under their https:// \
            URL and forwarded to the real host, or answered as the collector answers with --answer or \
            PATTERN=answer. Other tunnels are relayed untouched. A failed interception is told on stderr. \
            A word with no dot near a keyword (analytcs) is refused as a typo; a single-label host near \
            one is written with a final dot (analytic.).
            """
    )

    @Option(help: ArgumentHelp("The address to bind; anything but loopback needs --token.", valueName: "address"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port; 0 picks a free one.", valueName: "port"))
    var port = 0

    @Option(
        help: ArgumentHelp("Forward requests to this URL (reverse proxy) instead of answering them.", valueName: "url"))
    var upstream: String?

    @Option(
        help: ArgumentHelp(
            "Append every captured request to this NDJSON file as it arrives, its secrets [redacted] as the control API answers it. Created 0600; a symbolic link, or a file of another user, is refused.",
            valueName: "file"))
    var journal: String?

    @Flag(
        help:
            "Write the journal's requests as captured: the file then holds secrets (write keys, Authorization headers, tokens in URLs and bodies); keep it private."
    )
    var journalRaw = false

    @Option(
        help: ArgumentHelp(
            "Keep at most N requests in memory per list; older ones are dropped and counted.", valueName: "n"))
    var maxRequests: Int?

    @Option(
        help: ArgumentHelp(
            "Refuse with 413 a body larger than this, as sent or inflated (every gzip layer in it counted together); one refused once inflated is recorded as refused, without its body. An upstream's answer larger than this gets 502.",
            valueName: "bytes"))
    var maxBodySize = 16 * 1024 * 1024

    @Option(
        help: ArgumentHelp(
            "Demand Authorization: Bearer TOKEN on the control API; bound beyond loopback, the proxy demands it too (Proxy-Authorization: Bearer TOKEN, or Basic with TOKEN as the password). Never recorded, nor any Proxy-Authorization.",
            valueName: "token"))
    var token: String?

    @Option(
        help: ArgumentHelp(
            "Read the token from this file's one line (the file must not be open to group or others) instead of --token, which `ps` shows to every user. Without either, $TRACKSNAP_TOKEN is the token when set and not empty.",
            valueName: "file"))
    var tokenFile: String?

    @Option(
        help: ArgumentHelp(
            "Also answer control API requests whose Host is NAME (any port) or NAME:PORT; the server's own address, localhost, 127.0.0.1 and [::1] always are. Repeatable.",
            valueName: "name"))
    var allowHost: [String] = []

    @Option(
        help: ArgumentHelp(
            "Where validate and record look up profile names; otherwise the nearest Validators folder beside the snapshot or above it, within the root, else the root's Validators.",
            valueName: "dir"))
    var validatorsDir: String?

    @Option(
        help: ArgumentHelp(
            "Answer 408 and close a connection that has not sent a whole request head this many seconds after its first byte.",
            valueName: "seconds"))
    var headerTimeout = 10.0

    @Option(
        help: ArgumentHelp(
            "Close a connection idle this many seconds between requests (an HTTP/2 one with no open stream); answer 408 to a body stalled as long.",
            valueName: "seconds"))
    var idleTimeout = 60.0

    @Option(
        help: ArgumentHelp(
            "The control API reads and writes files only under this directory (symlinks followed). Default: the working directory.",
            valueName: "dir"))
    var root: String?

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Decrypt CONNECT tunnels to these hosts: all, analytics, *.DOMAIN or a host; PATTERN=answer or PATTERN=forward sets one pattern's action.",
            valueName: "pattern"))
    var intercept: [String] = []

    @Flag(
        help:
            "Answer intercepted requests as the collector does instead of forwarding them to the real host: nothing reaches the vendor."
    )
    var answer = false

    @Option(
        help: ArgumentHelp(
            "Trust the certificates in this PEM file, besides the system's roots, when forwarding an intercepted request. Repeatable.",
            valueName: "file"))
    var upstreamCa: [String] = []

    @Option(help: ArgumentHelp("The certificate authority's folder (see `tracksnap ca`).", valueName: "dir"))
    var caDir: String?

    @Option(
        help: ArgumentHelp(
            "Answer what would be forwarded (--upstream, the forward proxy, intercepted tunnels) from this cassette: tracksnap's, DVR's, Vinyl's, VCR's, vcrpy's or a HAR file.",
            valueName: "file"))
    var cassette: String?

    @Option(
        help: ArgumentHelp(
            "What the cassette records: missing (a new one records, an existing one replays), never, all (anew), failed (what it lacks); or VCR's once, none, all, new_episodes. Default: $TRACKSNAP_RECORD, else never when CI is set, else missing.",
            valueName: "mode"))
    var recordMode: String?

    @Flag(
        help:
            "Let an interaction of the cassette answer again once every match has been played, where its rules play each once (VCR's and vcrpy's; vcrpy's allow_playback_repeats)."
    )
    var allowRepeats = false

    @Flag(help: "Do not print a line on stderr for each captured request.")
    var quiet = false

    mutating func check() throws {
        token = try controlToken()
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        if !CaptureServer.Configuration.isLoopback(host) && (token ?? "").isEmpty {
            throw ValidationError(
                "binding to \(host) would let anyone on the network drive the control API; pass --token TOKEN, or bind 127.0.0.1"
            )
        }
        for name in allowHost where name.isEmpty || name.contains(where: { $0.isWhitespace || "/@".contains($0) }) {
            throw ValidationError("--allow-host takes a host name, or NAME:PORT, not \"\(name)\"")
        }
        if journalRaw && journal == nil {
            throw ValidationError("--journal-raw applies to a journal: add --journal FILE")
        }
        if let maxRequests, maxRequests < 1 { throw ValidationError("--max-requests must be at least 1") }
        for (name, value) in [("--header-timeout", headerTimeout), ("--idle-timeout", idleTimeout)]
        where !value.isFinite || value <= 0 || value > 86_400 {
            throw ValidationError("\(name) must be a number of seconds above 0 and at most 86400, not \(value)")
        }
        guard maxBodySize >= 0 else { throw ValidationError("--max-body-size cannot be negative") }
        if let root {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--root must be a directory, not \"\(root)\"")
            }
        }
        if intercept.isEmpty && (answer || !upstreamCa.isEmpty || caDir != nil) {
            throw ValidationError(
                "--answer, --upstream-ca and --ca-dir apply to intercepted tunnels: name their hosts with --intercept")
        }
        if allowRepeats, cassette == nil {
            throw ValidationError("--allow-repeats applies to a cassette: add --cassette FILE")
        }
        if let recordMode {
            guard cassette != nil else {
                throw ValidationError("--record-mode applies to a cassette: add --cassette FILE")
            }
            guard RecordMode(cassette: recordMode) != nil else {
                throw ValidationError(
                    "--record-mode is one of \(RecordMode.cassetteNames.joined(separator: ", ")), not \"\(recordMode)\""
                )
            }
        }
        if let upstream {
            guard let url = URL(string: upstream), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host != nil
            else {
                throw ValidationError("--upstream must be an http:// or https:// URL, not \"\(upstream)\"")
            }
        }
    }

    func run() throws {
        // SIGINT and SIGTERM are blocked in this thread before the server starts its own, which
        // inherit the mask, and taken by one thread with sigwait: a signal the kernel hands to a
        // thread that had not blocked it would otherwise be lost (a dispatch signal source on
        // Linux reads only those left pending), and the server would not stop.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
        var requestLog: (@Sendable (RequestLogLine) -> Void)?
        if !quiet {
            requestLog = { line in
                Terminal.error(line.description)
            }
        }
        var configuration = CaptureServer.Configuration(
            host: host, port: port, upstream: upstream.flatMap { URL(string: $0) }, journalPath: journal,
            maximumRequests: maxRequests, maximumBodySize: maxBodySize, token: token,
            validatorsDirectory: validatorsDir,
            root: root, requestLog: requestLog, allowedHosts: allowHost)
        configuration.journalKeepsSecrets = journalRaw
        // A notice may name what a client sent (a TLS server name): made visible as the request
        // lines are (`RequestLogLine`), so that it cannot forge a line or drive the terminal.
        configuration.notices = { line in
            Terminal.error(VisibleText.inline(line))
        }
        if !intercept.isEmpty {
            do {
                configuration.interception = try Interception(intercept, answer: answer)
                configuration.certificateAuthority = try CertificateAuthority.load(
                    from: caDir ?? CertificateAuthority.defaultDirectory())
            } catch let error as CaptureServerError {
                Terminal.error("error: \(error.message)")
                throw Exit.badInput
            } catch let error as CertificateAuthorityError {
                Terminal.error("error: \(error.message)")
                throw Exit.badInput
            }
            configuration.upstreamCertificateFiles = upstreamCa
        }
        // Every cassette's default mode, `--cassette`'s and the sessions' alike, is decided here once.
        let defaultRecordMode: RecordMode
        do {
            defaultRecordMode = try RecordMode.resolve(
                explicit: nil, configured: nil, environment: ProcessInfo.processInfo.environment)
        } catch {
            Terminal.error("error: \(error.description)")
            throw Exit.badInput
        }
        configuration.cassetteRecordMode = defaultRecordMode
        if let cassette {
            do {
                configuration.replay = try CassettePlayer(
                    path: cassette, mode: recordMode.flatMap(RecordMode.init(cassette:)) ?? defaultRecordMode,
                    allowingRepeats: allowRepeats,
                    recordHint:
                        "start tracksnap serve again with --record-mode failed (records what the cassette lacks)",
                    repeatHint: "start tracksnap serve again with --allow-repeats",
                    writeFailed: { [notices = configuration.notices] in notices?("cassette: \($0.description)") },
                    maximumRecorded: maxRequests)
            } catch {
                Terminal.error("\(error)")
                throw Exit.badInput
            }
        }
        configuration.headerTimeout = .milliseconds(Int64((headerTimeout * 1000).rounded()))
        configuration.idleTimeout = .milliseconds(Int64((idleTimeout * 1000).rounded()))
        let server: CaptureServer
        do {
            server = try CaptureServer(configuration: configuration)
        } catch {
            Terminal.error("error: \(error.message)")
            throw Exit.badInput
        }
        let tellsBrowserToken = configuration.token == nil && server.browserToken != nil
        let outcome = ServeOutcome()
        let done = DispatchSemaphore(value: 0)
        let waited = stopSignals
        Thread {
            var signals = waited
            var received: Int32 = 0
            sigwait(&signals, &received)
            Task {
                try? await server.shutdown()
                done.signal()
            }
        }.start()
        Task {
            do {
                let url = try await server.start()
                // Written straight to the descriptor, unbuffered: tests read this line from a pipe.
                FileHandle.standardOutput.write(Data("listening on \(url.absoluteString)\n".utf8))
                // A token made for this run is told once, on stderr; one the user gave never is.
                if tellsBrowserToken {
                    Terminal.error(
                        "the inspector: \(server.inspectorURL(at: url)) (this server serves pages it did not write, so the control API asks a browser for this run's token)"
                    )
                }
            } catch {
                outcome.fail("error: \(error)")
                try? await server.shutdown()
                done.signal()
            }
        }
        done.wait()
        if let failure = outcome.failure {
            Terminal.error(failure)
            throw Exit.badInput
        }
    }
}

/// How `serve` ended, set from the task that starts the server.
private final class ServeOutcome: Sendable {
    private let message = Mutex<String?>(nil)

    var failure: String? { message.withLock { $0 } }

    func fail(_ text: String) {
        message.withLock { $0 = text }
    }
}
