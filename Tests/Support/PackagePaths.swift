public import Foundation

/// Where the package, its fixtures and the built `tracksnap` executable are.
///
/// ```swift
/// let demo = PackagePaths.root.appending(path: "Snapshots/demo/checkout.json")
/// ```
public enum PackagePaths {
    /// The package root: this file is `Tests/Support/PackagePaths.swift`.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The vendors' SDK scripts (`send_VENDOR.py`) and the event snapshots their runs are checked
    /// against, shared by the Swift tests and the Python client's tests.
    public static let sdks = root.appending(path: "Tests/SDKs")

    /// The Python of the venv `make sdk-venv` makes: the vendors' SDKs, vcrpy, pytest.
    public static let python = root.appending(path: ".build/sdk-venv/bin/python")

    /// `python`, or an error that fails the test saying to run `make sdk-venv`, which installs
    /// `what` (the package the test runs): `let python = try PackagePaths.sdkPython(for: "bbpb")`.
    public static func sdkPython(for what: String) throws -> URL {
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw MissingTool(description: "\(python.path) is missing: run `make sdk-venv`, which installs \(what)")
        }
        return python
    }

    /// A tool a test runs is not installed: what to run to install it.
    public struct MissingTool: Error, CustomStringConvertible {
        public let description: String
    }

    /// The Python of the venv `make mitmproxy-venv` makes: mitmproxy 11.0.2 and its `mitmdump`.
    public static let mitmproxyPython = root.appending(path: ".build/mitmproxy-venv/bin/python")

    /// The `tracksnap` executable `swift test` builds beside the test bundle, or why it is not there.
    public static let executable: Result<URL, ExecutableNotFound> = builtExecutable("tracksnap")

    /// An executable product `swift test` builds beside the test bundle (one a test target
    /// depends on), or why it is not there.
    public static func builtExecutable(_ name: String) -> Result<URL, ExecutableNotFound> {
        let candidates = productDirectories.map { $0.appending(path: name) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            return .failure(ExecutableNotFound(name: name, searched: candidates.map(\.path)))
        }
        return .success(found)
    }

    /// The build products directory, seen from the running test process: on Linux the test
    /// runner is `.build/debug/<package>PackageTests.xctest`, an executable beside the products;
    /// on macOS it is a bundle loaded by `xctest`, so the bundle's parent is the directory.
    private static var productDirectories: [URL] {
        var directories: [URL] = []
        if let override = ProcessInfo.processInfo.environment["TRACKSNAP_EXECUTABLE_DIR"] {
            directories.append(URL(fileURLWithPath: override))
        }
        directories += Bundle.allBundles
            .map(\.bundleURL)
            .filter { $0.pathExtension == "xctest" }
            .map { $0.deletingLastPathComponent() }
        directories.append(Bundle.main.bundleURL)
        if let first = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        return directories
    }

    /// The executable is missing: the tests say where they looked and how to build it.
    public struct ExecutableNotFound: Error, CustomStringConvertible {
        let name: String
        let searched: [String]
        public var description: String {
            "the \(name) executable was not found; looked for \(searched.joined(separator: ", ")). "
                + "Build it with `swift build --product \(name)`, or set TRACKSNAP_EXECUTABLE_DIR to the directory holding it."
        }
    }
}
