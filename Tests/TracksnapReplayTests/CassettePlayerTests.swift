import Foundation
import Synchronization
import Testing
import TracksnapJSON
import TracksnapReplay
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@Suite("A cassette answers requests by its tool's rules, and records what its mode lets it")
struct CassettePlayerTests {
    func request(_ method: String, _ url: String, json: String? = nil) -> CapturedRequest {
        CapturedRequest(
            id: "1", method: method, url: url,
            headers: json == nil ? [] : [.init(name: "Content-Type", value: "application/json")],
            body: json.map(CapturedRequest.Body.text))
    }

    func interaction(_ method: String, _ url: String, json: String? = nil, status: Int, answer: String) -> Interaction {
        Interaction(
            request: Interaction.Request(request(method, url, json: json)),
            response: Interaction.Response(status: status, body: .text(answer)))
    }

    func write(_ interactions: [Interaction], to path: String) throws {
        try Cassette(name: "c", format: .tracksnap, interactions: interactions).write(to: path)
    }

    /// `{"coding":"gzip","products":[{"sku":"A-1"}]}` gzip'd, as Ruby VCR's `base64_string` holds it.
    static let gzipped = Array(
        Data(
            base64Encoded: "H4sIAAAAAAACA6tWSs5PycxLV7JSSq/KLFDSUSooyk8pTS4pVrKKrlYqzi4FyjjqGirVxtYCAMxnO1UsAAAA")
            ?? Data())
    static let plain = #"{"coding":"gzip","products":[{"sku":"A-1"}]}"#

    @Test(
        "an answer is served as recorded: Content-Encoding kept while the body is still in it, dropped when it was stored decoded, Content-Length true"
    )
    func served() {
        let headers: [CapturedRequest.Header] = [
            .init(name: "Content-Type", value: "application/json"), .init(name: "content-encoding", value: "gzip"),
            .init(name: "Content-Length", value: "99"), .init(name: "Transfer-Encoding", value: "chunked"),
            .init(name: "Set-Cookie", value: "[redacted]"),
        ]
        func lines(_ served: (headers: [CapturedRequest.Header], body: [UInt8])) -> [String] {
            served.headers.map { "\($0.name): \($0.value)" }
        }
        // Stored decoded (DVR, Vinyl, vcrpy through requests, the in-process capture): served as the bytes they are.
        let decoded = Interaction.Response(status: 200, headers: headers, body: .text("{}"))
        #expect(!decoded.isBodyEncoded)
        #expect(
            lines(decoded.served(acceptEncoding: "gzip"))
                == ["Content-Type: application/json", "Set-Cookie: [redacted]", "Content-Length: 2"])

        // Stored still encoded (Ruby VCR, vcrpy through urllib): kept so for a
        // client that accepts it, decoded for one that does not.
        let encoded = Interaction.Response(status: 200, headers: headers, body: .binary(Self.gzipped))
        #expect(encoded.isBodyEncoded)
        let accepted = encoded.served(acceptEncoding: "deflate, gzip;q=0.5, br")
        #expect(accepted.body == Self.gzipped)
        #expect(
            lines(accepted) == [
                "Content-Type: application/json", "content-encoding: gzip", "Set-Cookie: [redacted]",
                "Content-Length: \(Self.gzipped.count)",
            ])
        for refused in [nil, "identity", "gzip;q=0, br", "x-gzip;q=0"] {
            let served = encoded.served(acceptEncoding: refused)
            #expect(String(decoding: served.body, as: UTF8.self) == Self.plain, "\(refused ?? "none")")
            #expect(lines(served).last == "Content-Length: \(Self.plain.utf8.count)")
            #expect(!served.headers.contains { $0.name.lowercased() == "content-encoding" })
        }
        #expect(encoded.served(acceptEncoding: "*").body == Self.gzipped)

        // A coding tracksnap does not undo (brotli): bytes are taken as still encoded, text as not.
        let brotli: [CapturedRequest.Header] = [.init(name: "Content-Encoding", value: "br")]
        let bytes = Interaction.Response(status: 200, headers: brotli, body: .binary([0x8B, 0x03, 0x80, 0x7B]))
        #expect(
            bytes.isBodyEncoded && bytes.served(acceptEncoding: nil).headers.map(\.name).first == "Content-Encoding")
        #expect(!Interaction.Response(status: 200, headers: brotli, body: .text("{}")).isBodyEncoded)
    }

    @Test("a HAR file's answers are decoded by the format's definition: served without the Content-Encoding they kept")
    func harDecoded() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "flows.har").path
            let har = """
                {"log": {"version": "1.2", "entries": [{"startedDateTime": "2026-11-24T19:00:00Z",
                  "request": {"method": "GET", "url": "https://a.example/logo", "headers": []},
                  "response": {"status": 200, "headers": [{"name": "Content-Encoding", "value": "br"}],
                    "content": {"mimeType": "image/png", "text": "iVBORw==", "encoding": "base64"}}}]}}
                """
            try Data(har.utf8).write(to: URL(fileURLWithPath: path))
            let player = try CassettePlayer(path: path, mode: .never)
            guard case .replay(let answer) = player.answer(for: request("GET", "https://a.example/logo")) else {
                Issue.record("not replayed")
                return
            }
            #expect(!answer.isBodyEncoded)
            #expect(answer.served(acceptEncoding: "br").headers.map(\.name) == ["Content-Length"])
        }
    }

    @Test("URLs match by their parts: a default port or a missing / is the same URL, the query is a set")
    func urls() {
        let rules = CassetteMatching.vcr
        #expect(rules.matches(request("GET", "http://Example.com"), request("get", "http://example.com:80/")))
        #expect(
            rules.matches(request("GET", "https://a.example/p?b=2&a=1"), request("GET", "https://a.example/p?a=1&b=2")))
        #expect(
            rules.differences(request("GET", "https://a.example/p?a=1"), request("GET", "http://a.example:8080/q"))
                == [
                    "scheme: https, recorded http", "port: 443, recorded 8080", "path: /p, recorded /q",
                    "query: ?a=1, recorded no query",
                ])
    }

    @Test("DVR's rules compare JSON bodies by meaning, other bodies by their bytes")
    func bodies() {
        let rules = CassetteMatching.dvr
        let a = request("POST", "https://a.example/cart", json: #"{"sku": "A-1", "n": 2}"#)
        #expect(rules.matches(a, request("POST", "https://a.example/cart", json: #"{"n":2,"sku":"A-1"}"#)))
        #expect(!rules.matches(a, request("POST", "https://a.example/cart", json: #"{"n":3,"sku":"A-1"}"#)))
        #expect(CassetteMatching.vinyl.matches(a, request("POST", "https://a.example/cart", json: "{}")))
    }

    @Test("repeated requests get their answers in order; then DVR's rules repeat the last and VCR's miss")
    func sequence() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "login.json").path
            try write(
                [
                    interaction("POST", "https://a.example/login", status: 401, answer: "wrong"),
                    interaction("POST", "https://a.example/login", status: 200, answer: "welcome"),
                ], to: path)
            let login = request("POST", "https://a.example/login")
            for (rules, third) in [(CassetteMatching.dvr, "200"), (.vcr, "599")] {
                let player = try CassettePlayer(path: path, mode: .never, matching: rules)
                let statuses = (1...3).map { _ -> String in
                    switch player.answer(for: login) {
                    case .replay(let response): String(response.status)
                    case .miss(let miss): String(miss.response.status)
                    case .forward: "forward"
                    }
                }
                #expect(statuses == ["401", "200", third])
            }
            // VCR's miss says the request was answered already, and how to let it answer again.
            let player = try CassettePlayer(path: path, mode: .never, matching: .vcr)
            _ = (player.answer(for: login), player.answer(for: login))
            guard case .miss(let miss) = player.answer(for: login) else {
                Issue.record("a third login is a miss under VCR's rules")
                return
            }
            #expect(miss.played == [0, 1])
            #expect(miss.description.contains("already played: interaction 1, 2 matches"), "\(miss.description)")
            #expect(miss.description.contains("allow repeats with matching: CassetteMatching.vcr.allowingRepeats"))
            #expect(miss.json["played"] == .array([.number("1"), .number("2")]))
            let repeating = try CassettePlayer(path: path, mode: .never, matching: .vcr.allowingRepeats)
            _ = (repeating.answer(for: login), repeating.answer(for: login))
            guard case .replay(let again) = repeating.answer(for: login) else {
                Issue.record("allowingRepeats answers a third login")
                return
            }
            #expect(again.status == 200)
        }
    }

    @Test("a miss in never names the request, the nearest interactions and what differs, and how to record it")
    func miss() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "shop.json").path
            try write(
                [
                    interaction("GET", "https://a.example/v1/products?page=1", status: 200, answer: "[]"),
                    interaction("POST", "https://a.example/v1/cart", status: 201, answer: "{}"),
                ], to: path)
            let player = try CassettePlayer(path: path, mode: .never)
            guard case .miss(let miss) = player.answer(for: request("GET", "https://a.example/v1/products?page=2"))
            else {
                Issue.record("expected a miss")
                return
            }
            #expect(
                miss.description == """
                    \(path): no recorded answer for GET https://a.example/v1/products?page=2 (record mode never)
                      nearest: interaction 1, GET https://a.example/v1/products?page=1
                        differs in query: ?page=2, recorded ?page=1
                      nearest: interaction 2, POST https://a.example/v1/cart
                        differs in method: GET, recorded POST
                        differs in path: /v1/products, recorded /v1/cart
                        differs in query: ?page=2, recorded no query
                      to record it: run again with TRACKSNAP_RECORD=failed (records what the cassette lacks)
                    """)
            #expect(miss.response.status == 599)
            #expect(player.misses.count == 1)
        }
    }

    @Test(
        "a miss masks the personal data of the request and of the nearest recorded ones, as sent in a form or a query")
    func missMasksPersonalData() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "login.json").path
            func login(_ user: String, _ phone: String) -> CapturedRequest {
                CapturedRequest(
                    id: "1", method: "POST", url: "https://a.example/login?email=\(user)",
                    headers: [.init(name: "Content-Type", value: "application/x-www-form-urlencoded")],
                    body: .text("user=\(user)&tel=\(phone)"))
            }
            let recorded = login("ada.lovelace%40example.com", "%2B44+20+7946+0958")
            try write(
                [Interaction(request: Interaction.Request(recorded), response: .init(status: 200, body: .text("ok")))],
                to: path)
            let player = try CassettePlayer(path: path, mode: .never)
            guard case .miss(let miss) = player.answer(for: login("bob.brown%40example.com", "%2B44+20+7946+0959"))
            else { throw Unexpected.decision }
            let shown = miss.description + miss.json.serialized()
            for planted in ["ada.lovelace", "bob.brown", "7946+0958", "7946+0959", "7946 0958"] {
                #expect(!shown.contains(planted), "\(planted) in \(shown)")
            }
            #expect(shown.contains("b***@example.com") && shown.contains("a***@example.com"), "\(shown)")
        }
    }

    @Test(
        "missing records a cassette that does not exist and replays one that does; failed records only what it lacks; all starts over"
    )
    func modes() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "Cassettes/new.json").path
            let products = request("GET", "https://a.example/v1/products")
            let cart = request("POST", "https://a.example/v1/cart", json: #"{"sku":"A-1"}"#)

            let first = try CassettePlayer(path: path, mode: .missing)
            guard case .forward = first.answer(for: products) else { throw Unexpected.decision }
            first.record(products, response: .init(status: 200, body: .text("[]")))
            first.flush()
            #expect(try Cassette.read(path: path).cassette.interactions.count == 1)

            let second = try CassettePlayer(path: path, mode: .missing)
            guard case .replay(let replayed) = second.answer(for: products) else { throw Unexpected.decision }
            #expect(replayed.body == .text("[]"))
            guard case .miss = second.answer(for: cart) else { throw Unexpected.decision }

            let third = try CassettePlayer(path: path, mode: .failed)
            guard case .replay = third.answer(for: products), case .forward = third.answer(for: cart) else {
                throw Unexpected.decision
            }
            third.record(cart, response: .init(status: 201, body: .json(["cart": "c-1"])))
            third.flush()
            let written = try Cassette.read(path: path).cassette
            #expect(written.interactions.map(\.request.method) == ["GET", "POST"])
            #expect(written.interactions[1].request.body == .json(["sku": "A-1"]))

            let fourth = try CassettePlayer(path: path, mode: .all)
            guard case .forward = fourth.answer(for: products) else { throw Unexpected.decision }
            fourth.record(products, response: .init(status: 200, body: .text("[1]")))
            fourth.flush()
            guard case .forward = fourth.answer(for: products) else { throw Unexpected.decision }
            #expect(try Cassette.read(path: path).cassette.interactions.count == 1, "all starts the cassette over")
        }
    }

    @Test("a cassette's request may say with matchers what changes between runs: its query and its JSON body")
    func patterns() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "search.json").path
            try Data(
                #"""
                {"cassette": 1, "interactions": [{
                  "request": {"method": "POST", "url": "https://api.shop.example/v1/search",
                              "query": {"page": "1", "ts": {"$regex": "[0-9]{13}"}},
                              "headers": {"Content-Type": "application/json"},
                              "json": {"term": "mug", "nonce": {"$type": "string"}}},
                  "response": {"status": 200, "json": {"results": 3}}}]}
                """#.utf8
            ).write(to: URL(fileURLWithPath: path))
            let player = try CassettePlayer(path: path, mode: .never)
            for (ts, nonce) in [("1700000000000", "n-1"), ("1790000000123", "n-2")] {
                let search = request(
                    "POST", "https://api.shop.example/v1/search?ts=\(ts)&page=1",
                    json: #"{"term": "mug", "nonce": "\#(nonce)"}"#)
                guard case .replay(let answer) = player.answer(for: search) else { throw Unexpected.decision }
                #expect(answer.body == .json(["results": 3]))
            }
            let other = request(
                "POST", "https://api.shop.example/v1/search?ts=now&page=1", json: #"{"term": "cup", "nonce": "n"}"#)
            guard case .miss(let miss) = player.answer(for: other) else { throw Unexpected.decision }
            #expect(
                miss.nearest.first?.differences == [
                    #"query: ?ts=now&page=1, recorded {"page":"1","ts":{"$regex":"[0-9]{13}"}}"#,
                    #"body: {"term": "cup", "nonce": "n"}, recorded {"nonce":{"$type":"string"},"term":"mug"}"#,
                ])
            // Written back, the patterns stay.
            let copy = directory.appending(path: "copy.json").path
            try Cassette.read(path: path).cassette.write(to: copy)
            #expect(try Cassette.read(path: copy).cassette == Cassette.read(path: path).cassette)
        }
    }

    /// Records one request and its answer into a new cassette at `path`, as a proxy in mode
    /// `missing` does, and gives back the file's text.
    func recordOnce(_ request: CapturedRequest, answer: Interaction.Response, at path: String) throws -> String {
        let player = try CassettePlayer(path: path, mode: .missing)
        guard case .forward = player.answer(for: request) else { throw Unexpected.decision }
        player.record(request, response: answer)
        player.flush()
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test("no secret of the request or the answer reaches the cassette, and the next run's secrets still match")
    func secrets() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "login.json").path
            var login = request(
                "POST", "https://a.example/login?api_key=k-999", json: #"{"user": "u1", "password": "hunter2"}"#)
            login.headers.append(.init(name: "Authorization", value: "Bearer t0ken"))
            let text = try recordOnce(
                login,
                answer: .init(
                    status: 200,
                    headers: [
                        .init(name: "Content-Type", value: "application/json"),
                        .init(name: "Set-Cookie", value: "session=s3cr3t"),
                    ],
                    body: .text(#"{"access_token": "tok-123", "user": "u1", "echo": "Bearer t0ken"}"#)),
                at: path)
            for secret in ["hunter2", "t0ken", "s3cr3t", "tok-123", "k-999"] {
                #expect(!text.contains(secret), "\(secret) reached the cassette:\n\(text)")
            }
            #expect(text.contains(#""user": "u1""#))

            var next = request(
                "POST", "https://a.example/login?api_key=k-111", json: #"{"password": "other", "user": "u1"}"#)
            next.headers.append(.init(name: "Authorization", value: "Bearer other"))
            guard case .replay(let answer) = try CassettePlayer(path: path, mode: .never).answer(for: next) else {
                throw Unexpected.decision
            }
            #expect(answer.status == 200)
        }
    }

    @Test(
        "a gzip'd answer is recorded decoded, without its Content-Encoding, so that its secrets are hidden, and replays as its JSON",
        .tags(.process), .leftToMakeTest)
    func gzippedAnswerSecrets() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "login.json").path
            let json = #"{"access_token":"tok-5e6f7a8b","email":"ada@example.com","plan":"pro"}"#
            let body = Array(try TracksnapTestSupport.gzipped(Data(json.utf8)))
            let login = request("POST", "https://a.example/login", json: #"{"user": "u1"}"#)
            let text = try recordOnce(
                login,
                answer: .init(
                    status: 200,
                    headers: [
                        .init(name: "Content-Type", value: "application/json"),
                        .init(name: "Content-Encoding", value: "gzip"),
                        .init(name: "Content-Length", value: String(body.count)),
                    ],
                    body: .binary(body)),
                at: path)
            #expect(!text.contains("tok-5e6f7a8b") && !text.contains("H4sI"), "\(text)")
            #expect(!text.lowercased().contains("content-encoding") && !text.contains("Content-Length"), "\(text)")
            guard case .replay(let answer) = try CassettePlayer(path: path, mode: .never).answer(for: login) else {
                throw Unexpected.decision
            }
            let served = answer.served(acceptEncoding: "gzip")
            #expect(
                try JSONDocument.parse(served.body, file: "answer").value
                    == ["access_token": "[redacted]", "email": "ada@example.com", "plan": "pro"])
        }
    }

    @Test(
        "another tool's cassette with a key in its URL answers the same request: both are compared with the key hidden")
    func foreignSecrets() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "dvr.json").path
            try Data(
                #"""
                {"name": "me", "interactions": [{"recorded_at": 1700000000,
                  "request": {"method": "GET", "url": "https://a.example/v1/me?api_key=k-123",
                              "headers": {"Authorization": "Bearer t-1"}},
                  "response": {"status": 200, "headers": {"Content-Type": "text/plain"}, "body": "me"}}]}
                """#.utf8
            ).write(to: URL(fileURLWithPath: path))
            let player = try CassettePlayer(path: path, mode: .never)
            #expect(answered(player, "https://a.example/v1/me?api_key=k-123") == "me")
            #expect(answered(player, "https://a.example/v1/you?api_key=k-123") == "miss 599")
        }
    }

    @Test("a burst of recorded interactions is one write, at flush; without one, a moment after the last")
    func debouncedWrites() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "burst.json").path
            let held = try CassettePlayer(path: path, mode: .missing, writeDelay: .seconds(600))
            for page in 1...300 {
                let asked = request("GET", "https://a.example/v1/products?page=\(page)")
                guard case .forward = held.answer(for: asked) else { throw Unexpected.decision }
                held.record(asked, response: .init(status: 200, body: .text("page \(page)")))
            }
            #expect(!FileManager.default.fileExists(atPath: path), "written before the delay or a flush")
            held.flush()
            held.flush()
            #expect(held.writes == 1)
            #expect(try Cassette.read(path: path).cassette.interactions.count == 300)

            let later = directory.appending(path: "later.json").path
            let soon = try CassettePlayer(path: later, mode: .missing, writeDelay: .milliseconds(20))
            let clock = ContinuousClock()
            let start = clock.now
            soon.record(request("GET", "https://a.example/v1/cart"), response: .init(status: 200, body: .text("{}")))
            while !FileManager.default.fileExists(atPath: later), clock.now - start < Bounds.wait {
                // Polled on this thread: the write runs on a Dispatch queue, whatever the tasks do.
                Thread.sleep(forTimeInterval: 0.01)
            }
            #expect(FileManager.default.fileExists(atPath: later), "not written without a flush")
            #expect(soon.writes == 1)
        }
    }

    @Test("a cassette that cannot be written is a problem, and is written by the next flush that can")
    func failedWrite() throws {
        try withTemporaryDirectory { directory in
            let blocked = directory.appending(path: "blocked")
            // A file where the cassette's folder should be: the write fails.
            try Data("not a folder".utf8).write(to: blocked)
            let path = blocked.appending(path: "c.json").path
            let failures = Mutex<[String]>([])
            let player = try CassettePlayer(
                path: path, mode: .missing, writeDelay: .seconds(600),
                writeFailed: { failure in failures.withLock { $0.append(failure.description) } })
            player.record(request("GET", "https://a.example/v1/cart"), response: .init(status: 200, body: .text("{}")))
            player.flush()
            #expect(player.problems.count == 1)
            #expect(player.problems.first?.contains("c.json") == true, "\(player.problems)")
            #expect(failures.withLock { $0 } == player.problems)

            try FileManager.default.removeItem(at: blocked)
            player.flush()
            #expect(try Cassette.read(path: path).cassette.interactions.count == 1, "the failed write is tried again")
        }
    }

    /// The answer's body as text, or what else the player decided.
    func answered(_ player: CassettePlayer, _ url: String) -> String {
        switch player.answer(for: request("GET", url)) {
        case .replay(let response): String(decoding: response.body?.bytes ?? [], as: UTF8.self)
        case .miss(let miss): "miss \(miss.response.status)"
        case .forward: "forward"
        }
    }

    @Test(
        "a request is looked up by method, path and query: each of 1,000 pages of one search is compared with its own interaction only"
    )
    func lookup() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "search.json").path
            try write(
                (1...1000).map {
                    interaction("GET", "https://a.example/search?q=mug&page=\($0)", status: 200, answer: "page \($0)")
                },
                to: path)
            let player = try CassettePlayer(path: path, mode: .never)
            let wrong = (1...1000).reversed().filter {
                answered(player, "https://a.example/search?page=\($0)&q=mug") != "page \($0)"
            }
            #expect(wrong.isEmpty)
            // Not timed (figures are the benchmark's, make bench-replay): counted.
            #expect(player.comparisons == 1000)
        }
    }

    @Test("a query written with matchers and one written as values both answer a request, in the cassette's order")
    func lookupWithMatchers() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appending(path: "search.json")
            try TracksnapTestSupport.write(
                #"""
                {"cassette": 1, "interactions": [
                  {"request": {"method": "GET", "url": "https://a.example/search", "query": {"page": {"$regex": "[0-9]+"}}},
                   "response": {"status": 200, "text": "any page"}},
                  {"request": {"method": "GET", "url": "https://a.example/search?page=1"},
                   "response": {"status": 200, "text": "page 1"}}]}
                """#, to: path)
            let player = try CassettePlayer(path: path.path, mode: .never)
            #expect(
                (1...3).map { _ in answered(player, "https://a.example/search?page=1") } == [
                    "any page", "page 1", "page 1",
                ])
            #expect(answered(player, "https://a.example/search?page=2") == "any page")
            #expect(answered(player, "https://a.example/search?page=x") == "miss 599")
        }
    }

    enum Unexpected: Error { case decision }
}
