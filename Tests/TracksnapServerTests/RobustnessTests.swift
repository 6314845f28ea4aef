import Foundation
import Testing
import TracksnapJSON
import TracksnapServer
import TracksnapSnapshot
import TracksnapTestSupport
import TracksnapTraffic

@Suite("Robustness and limits", .tags(.process, .network), .leftToMakeTest)
struct RobustnessTests {
    @Test(
        "malformed HTTP gets 400 and the server goes on serving",
        arguments: [
            "GARBAGE\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n",
            "GET / HTTP/1.1\r\nBad Header Without Colon\r\n\r\n",
        ])
    func malformed(raw: String) async throws {
        try await withServer { server, port in
            let response = try await RawHTTP.exchange(port: port, Array(raw.utf8))
            #expect(response.status == 400)
            #expect(try await RawHTTP.send(port: port, target: "/after").status == 200)
            #expect(server.store.requests().map(\.url) == ["http://127.0.0.1:\(port)/after"])
        }
    }

    @Test("a client that disconnects mid-body breaks nothing")
    func disconnectMidRequest() async throws {
        try await withServer { server, port in
            try await offloaded {
                let socket = try Socket(port: port, timeout: 10)
                try socket.write(
                    Array("POST /half HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"partial\":".utf8))
                socket.close()
            }
            #expect(try await RawHTTP.send(port: port, target: "/whole").status == 200)
            #expect(server.store.requests().map(\.url) == ["http://127.0.0.1:\(port)/whole"])
        }
    }

    @Test("concurrent clients: every request sent is captured once")
    func concurrentClients() async throws {
        try await withServer { server, port in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for client in 0..<8 {
                    group.addTask {
                        var answered = 0
                        for index in 0..<100 {
                            let response = try await RawHTTP.send(
                                port: port, method: "POST", target: "/c/\(client)/\(index)",
                                body: Array("{\"i\":\(index)}".utf8))
                            if response.status == 200 { answered += 1 }
                        }
                        return answered
                    }
                }
                var answered = 0
                for try await count in group { answered += count }
                #expect(answered == 800)
            }
            let captured = server.store.requests()
            #expect(captured.count == 800)
            #expect(Set(captured.map(\.url)).count == 800)
            #expect(Set(captured.map(\.id)).count == 800)
        }
    }

    @Test("--max-requests keeps the newest and counts the dropped")
    func maximumRequests() async throws {
        try await withServer(.init(maximumRequests: 3)) { server, port in
            let id = try await startSession(port)
            for index in 1...5 { _ = try await RawHTTP.send(port: port, target: "/\(index)") }
            #expect(server.store.requests().map(\.id) == ["3", "4", "5"])
            #expect(server.store.requests(inSession: id)?.map(\.id) == ["3", "4", "5"])
            let health = try json(try await control(port, "GET", "health").text)
            #expect(health["captured"]?.doubleValue == 5)
            #expect(health["dropped"]?.doubleValue == 2)
            #expect(health["stored"]?.doubleValue == 3)
        }
    }

    @Test("a body over the limit gets 413, is not recorded and is counted", arguments: [false, true])
    func bodyTooLarge(chunked: Bool) async throws {
        try await withServer(.init(maximumBodySize: 1024)) { server, port in
            let body = String(repeating: "x", count: 2048)
            let raw: String
            if chunked {
                raw =
                    "POST /big HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "400\r\n\(body.prefix(1024))\r\n400\r\n\(body.prefix(1024))\r\n0\r\n\r\n"
            } else {
                raw = "POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 2048\r\n\r\n\(body)"
            }
            let response = try await RawHTTP.exchange(port: port, Array(raw.utf8))
            #expect(response.status == 413)
            #expect(server.store.requests().isEmpty)
            #expect(server.store.statistics.rejected == 1)
            #expect(
                try await RawHTTP.send(
                    port: port, method: "POST", target: "/small", body: Array(body.prefix(1024).utf8)
                ).status == 200)
        }
    }

    @Test("curl's Expect: 100-continue upload of a large body is received whole")
    func expectContinue() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "body.json")
            let text = "{\"blob\":\"" + String(repeating: "a", count: 2 * 1024 * 1024) + "\"}"
            try Data(text.utf8).write(to: file)
            try await withServer { server, port in
                let result = try await curl(
                    "-H", "Expect: 100-continue", "--data-binary", "@\(file.path)", "http://127.0.0.1:\(port)/upload")
                #expect(result.status == 0, "\(result.stderr)")
                #expect(server.store.requests().first?.body == .text(text))
            }
        }
    }

    @Test("the journal holds every request as an NDJSON line that reads back")
    func journal() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appending(path: "capture.ndjson").path
            try await withServer(.init(journalPath: path, maximumRequests: 2)) { server, port in
                let id = try await startSession(port)
                for index in 1...4 {
                    _ = try await RawHTTP.send(
                        port: port, method: "POST", target: "/j/\(index)", body: Array("{\"n\":\(index)}".utf8))
                }
                let journal = try CaptureFile.read(path: path)
                #expect(journal.map(\.url) == (1...4).map { "http://127.0.0.1:\(port)/j/\($0)" })
                #expect(journal.map(\.session) == Array(repeating: id, count: 4))
                #expect(journal.suffix(2) == server.store.requests())
            }
        }
    }
}
