public import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process the tests start, with `posix_spawn`, and wait for, with `waitpid` on a
/// thread of its own.
///
/// Not Foundation's `Process`, for two reasons seen in full-suite runs on Linux: it learns of an
/// exit when a socket the child holds closes, and a process spawned at the same moment by
/// another test can inherit that socket and hold the news back until it exits itself (a
/// finished client's wait ran into its 60-second deadline); and its children inherit
/// Dispatch's blocked signals, SIGTERM among them. A `Spawned` child starts with every
/// signal unblocked and at its default, and with no descriptor but its standard three.
///
/// ```swift
/// let child = try Spawned(URL(fileURLWithPath: "/bin/sh"), ["-c", "exit 3"])
/// let status = child.wait(timeout: 10)  // 3
/// ```
public final class Spawned: Sendable {
    public let processIdentifier: pid_t
    /// The program's name and arguments, for messages.
    public let command: String
    private let status = Mutex<Int32?>(nil)
    private let exited = DispatchSemaphore(value: 0)

    /// Starts a program.
    ///
    /// - Parameters:
    ///   - executable: the program.
    ///   - arguments: its arguments.
    ///   - directory: its working directory; the test's own when nil.
    ///   - environment: its whole environment; the test's own when nil.
    ///   - standardOutput, standardError: descriptors it writes to; /dev/null when nil. They
    ///     stay the caller's to close.
    /// - Throws: `SpawnFailure` when it cannot be started.
    public init(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
        standardOutput: Int32? = nil, standardError: Int32? = nil
    ) throws {
        command = ([executable.lastPathComponent] + arguments).joined(separator: " ")
        requireProcessTag(starting: executable.lastPathComponent)
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        guard null >= 0 else { throw SpawnFailure(command: command, errno: errno) }
        defer { close(null) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, null, 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput ?? null, 1)
        posix_spawn_file_actions_adddup2(&actions, standardError ?? null, 2)
        if let closeFrom = glibc("posix_spawn_file_actions_addclosefrom_np", as: CloseFrom.self) {
            _ = closeFrom(&actions, 3)
        }
        if let directory {
            guard let changeDirectory = glibc("posix_spawn_file_actions_addchdir_np", as: ChangeDirectory.self) else {
                throw SpawnFailure(command: command, errno: ENOSYS)
            }
            _ = changeDirectory(&actions, directory.path)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let environment = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for string in argv + envp { free(string) } }
        var spawned: pid_t = 0
        let result = posix_spawn(&spawned, executable.path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw SpawnFailure(command: command, errno: result) }
        let pid = spawned
        processIdentifier = pid

        Thread { [self] in
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) == -1, errno == EINTR {}
            // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
            let signal = raw & 0x7f
            status.withLock { $0 = signal == 0 ? (raw >> 8) & 0xff : signal }
            exited.signal()
        }.start()
    }

    /// Its exit status (or the signal that ended it), once it has exited.
    public var terminationStatus: Int32? { status.withLock { $0 } }

    public var isRunning: Bool { terminationStatus == nil }

    /// Blocks until it exits or `timeout` seconds pass; its status, or nil when it still runs.
    public func wait(timeout: Int) -> Int32? {
        guard exited.wait(timeout: .now() + .seconds(timeout)) == .success else { return nil }
        exited.signal()  // for the next waiter
        return terminationStatus
    }

    /// Sends a signal, unless it has exited (its process identifier may then be another's).
    public func signal(_ number: Int32) {
        if isRunning { kill(processIdentifier, number) }
    }

    /// Sends SIGTERM.
    public func terminate() {
        signal(SIGTERM)
    }
}

private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
private typealias ChangeDirectory =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

/// A C library function Swift's module for it leaves out (glibc declares the `_np` file actions
/// only under `_GNU_SOURCE`; they exist since glibc 2.29 and 2.34, and in macOS's libc).
private func glibc<Function>(_ name: String, as type: Function.Type) -> Function? {
    // RTLD_DEFAULT: the process's own libraries.
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
    return unsafeBitCast(symbol, to: type)
}

/// `posix_spawn` refused to start a program.
public struct SpawnFailure: Error, CustomStringConvertible {
    public let command: String
    public let errno: Int32
    public var description: String { "cannot start \(command): \(String(cString: strerror(errno)))" }
}
