import Foundation
import Testing
import TracksnapJSON
import TracksnapReplay
import TracksnapTestSupport
import TracksnapTraffic

/// What a lookup decides at once, and what it leaves for later: a server decides the first on
/// its event loop and the second on replay's own thread.
@Suite("A lookup decides a hit at once and leaves the work that grows with the cassette for later")
struct CassetteLookupWorkTests {
    func request(_ method: String, _ url: String, body: String? = nil) -> CapturedRequest {
        CapturedRequest(
            id: "", method: method, url: url,
            headers: body == nil ? [] : [.init(name: "Content-Type", value: "application/json")],
            body: body.map(CapturedRequest.Body.text))
    }

    func interaction(_ method: String, _ url: String, body: String? = nil, answer: String) -> Interaction {
        Interaction(
            request: Interaction.Request(request(method, url, body: body)),
            response: Interaction.Response(status: 200, body: .text(answer)))
    }

    func player(_ interactions: [Interaction], in directory: URL, named name: String = "c.json") throws
        -> CassettePlayer
    {
        let path = directory.appending(path: name).path
        try Cassette(name: "c", format: .tracksnap, interactions: interactions).write(to: path)
        return try CassettePlayer(path: path, mode: .never)
    }

    func answer(_ decision: CassettePlayer.Decision) -> String {
        switch decision {
        case .replay(let response): String(decoding: response.body?.bytes ?? [], as: UTF8.self)
        case .miss(let miss): "miss \(miss.nearest.map { $0.index + 1 })"
        case .forward: "forward"
        }
    }

    /// The answer decided at once, or nil when the lookup left it for later; and the answer.
    func lookUp(_ player: CassettePlayer, _ request: CapturedRequest) -> (now: String?, answer: String) {
        switch player.lookup(for: request) {
        case .decided(let decision): (answer(decision), answer(decision))
        case .later(let later): (nil, answer(later.decide()))
        }
    }

    @Test(
        "a hit among a few candidates is decided at once; a miss, and a request with more than 100 candidates (a GraphQL endpoint's), are left for later and then decided as answer(for:) decides them"
    )
    func decidedAtOnceOrLater() throws {
        try withTemporaryDirectory { directory in
            let queries = (1...150).map { #"{"query": "q\#($0)"}"# }
            let player = try player(
                [interaction("GET", "https://api.example/items/1", answer: "item 1")]
                    + queries.enumerated().map {
                        interaction("POST", "https://api.example/graphql", body: $1, answer: "answer \($0 + 1)")
                    },
                in: directory)
            #expect(CassettePlayer.inlineCompared == 100)
            let hit = lookUp(player, request("GET", "https://api.example/items/1"))
            #expect(hit.now == "item 1")
            let miss = lookUp(player, request("GET", "https://api.example/items/2"))
            #expect(miss.now == nil)
            #expect(miss.answer == "miss [1, 2, 3]")
            let many = lookUp(player, request("POST", "https://api.example/graphql", body: queries[119]))
            #expect(many.now == nil)
            #expect(many.answer == "answer 120")
            #expect(player.misses.count == 1)
        }
    }

    @Test(
        "a miss on a cassette of 1,500 interactions looks for its nearest among 1,000, those of its method and host first, and says so"
    )
    func nearestAmongBoundedFew() throws {
        try withTemporaryDirectory { directory in
            let player = try player(
                (1...1400).map { interaction("GET", "https://other.example/items/\($0)", answer: "other \($0)") }
                    + (1...100).map { interaction("GET", "https://api.example/items/\($0)", answer: "item \($0)") },
                in: directory)
            guard case .miss(let miss) = player.answer(for: request("GET", "https://api.example/items/none")) else {
                Issue.record("not a miss")
                return
            }
            #expect(miss.nearest.map(\.index) == [1400, 1401, 1402], "those of api.example, in the cassette's order")
            #expect(miss.compared?.among == 1000)
            #expect(miss.compared?.of == 1500)
            #expect(
                miss.description.contains(
                    "the nearest were looked for among 1000 of the cassette's 1500 interactions: those of the same method and host first"
                ), "\(miss.description)")
            #expect(miss.json["compared"] != nil)

            // A cassette of at most 1,000 is looked through whole, and the miss says nothing of it.
            let small = try self.player(
                (1...1000).map { interaction("GET", "https://other.example/items/\($0)", answer: "other \($0)") },
                in: directory, named: "small.json")
            guard case .miss(let whole) = small.answer(for: request("GET", "https://api.example/items/none")) else {
                Issue.record("not a miss")
                return
            }
            #expect(whole.compared == nil)
            #expect(!whole.description.contains("looked for among"))
        }
    }
}
