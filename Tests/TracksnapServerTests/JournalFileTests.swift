import Foundation
import Testing
import TracksnapServer
import TracksnapTestSupport
import TracksnapTraffic

@Suite(
    "The journal is a private file of the user's own, never reached through a link", .tags(.process, .network),
    .leftToMakeTest)
struct JournalFileTests {
    /// `tracksnap serve --journal PATH` run to its start-up error.
    private static func refusedServe(journal path: String) async throws -> ProcessResult {
        let result = try await run(try PackagePaths.executable.get().path, ["serve", "--port", "0", "--journal", path])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("listening"), "it must not start")
        return result
    }

    @Test(
        "a journal path that is a symbolic link is refused at start-up, naming it, and the file it points at is untouched"
    )
    func symbolicLink() async throws {
        try await withTemporaryDirectory { directory in
            // What the attack targets: a file its user can write, such as a shell's rc file.
            let target = directory.appending(path: "bashrc")
            try write("# the user's own file\n", to: target)
            let link = directory.appending(path: "journal.ndjson").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target.path)

            let result = try await Self.refusedServe(journal: link)
            #expect(result.stderr.contains("\(link): the journal is a symbolic link"), "\(result.stderr)")
            #expect(try String(contentsOf: target, encoding: .utf8) == "# the user's own file\n")

            // A link to where no file is yet would have created one.
            let dangling = directory.appending(path: "dangling.ndjson").path
            let absent = directory.appending(path: "created-by-the-link").path
            try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: absent)
            let refused = try await Self.refusedServe(journal: dangling)
            #expect(refused.stderr.contains("\(dangling): the journal is a symbolic link"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: absent))
        }
    }

    @Test("a journal that is not a regular file (a FIFO) is refused without waiting for a reader")
    func notRegular() async throws {
        try await withTemporaryDirectory { directory in
            let fifo = directory.appending(path: "journal.ndjson").path
            #expect(mkfifo(fifo, 0o600) == 0)
            // A server that opened the FIFO would wait for a reader for ever: the run's own bound
            // (`runProcess`, 60 s) kills it and throws, so no stopwatch is needed to tell.
            let result = try await Self.refusedServe(journal: fifo)
            #expect(result.stderr.contains("\(fifo): the journal is not a regular file"), "\(result.stderr)")
        }
    }

    @Test(
        "a journal that belongs to another user is refused at start-up, naming it",
        .enabled(if: geteuid() == 0, "only root can give a file to another user"))
    func otherOwner() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appending(path: "journal.ndjson").path
            try write("", to: URL(fileURLWithPath: path))
            #expect(chmod(path, 0o666) == 0)
            #expect(chown(path, 65534, 65534) == 0)  // nobody
            let result = try await Self.refusedServe(journal: path)
            #expect(
                result.stderr.contains("\(path): the journal belongs to another user (uid 65534)"), "\(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
        }
    }

    @Test("a new journal is created 0600 whatever the umask", arguments: ["022", "000"])
    func mode(umask: String) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appending(path: "journal.ndjson").path
            // The umask is the process's: set in a shell that then becomes the server.
            let server = try await ChildProcess.launch(
                URL(fileURLWithPath: "/bin/sh"),
                [
                    "-c", "umask \(umask) && exec \"$0\" serve --port 0 --quiet --journal \"$1\"",
                    try PackagePaths.executable.get().path, path,
                ])
            defer { server.stop() }
            #expect(server.firstLine.hasPrefix("listening on http://"), "\(server.firstLine)")
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let permissions = try #require(attributes[.posixPermissions] as? Int)
            #expect(String(permissions, radix: 8) == "600")
        }
    }

    @Test("an existing journal of the user's own is appended to")
    func appends() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appending(path: "journal.ndjson").path
            let earlier = #"{"headers":[],"id":"1","method":"GET","url":"https://t.example/earlier"}"# + "\n"
            try write(earlier, to: URL(fileURLWithPath: path))
            try await withServer(.init(journalPath: path)) { _, port in
                let response = try await RawHTTP.send(port: port, target: "/later")
                #expect(response.status == 200)
            }
            #expect(try CaptureFile.read(path: path).map(\.url).last?.hasSuffix("/later") == true)
            #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix(earlier))
        }
    }
}
