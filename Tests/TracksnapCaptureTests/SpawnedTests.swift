import Foundation
import Testing
import TracksnapTestSupport

/// The tests' own child processes (`Spawned`, under `runProcess` and `ChildProcess`): what
/// Foundation's `Process` got wrong for them on Linux.
@Suite("Child processes of the tests", .tags(.process), .leftToMakeTest)
struct SpawnedTests {
    @Test("a child starts with no signal blocked, so SIGTERM ends it")
    func signalsUnblocked() async throws {
        let status = try await runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "grep SigBlk /proc/self/status"])
        #expect(status.stdout == "SigBlk:\t0000000000000000\n")

        let sleeper = try await ChildProcess.launch(URL(fileURLWithPath: "/bin/sh"), ["-c", "echo up; exec sleep 60"])
        #expect(sleeper.firstLine == "up")
        sleeper.stop()
        #expect(try await sleeper.waitForExit(timeout: 10) == SIGTERM)
    }

    @Test("a child inherits no descriptor but its standard three")
    func noInheritedDescriptors() async throws {
        let planted = open("/dev/null", O_RDONLY)  // not close-on-exec
        defer { close(planted) }
        let result = try await runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "ls /proc/self/fd"])
        // 0, 1, 2 and the descriptor `ls` opens to read the folder.
        #expect(result.stdout.split(separator: "\n").count == 4, "\(result.stdout)")
    }

    @Test("a timeout names what the child had written by then")
    func timeoutSaysWhat() async throws {
        let error = await #expect(throws: ProcessTimeout.self) {
            try await runProcess(
                URL(fileURLWithPath: "/bin/sh"), ["-c", "echo half-way >&2; exec sleep 30"], timeout: 1)
        }
        #expect(error?.stderr == "half-way\n")
    }
}
