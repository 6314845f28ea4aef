public import Foundation

/// A fresh directory for the files one test writes, removed when the test is done.
///
/// ```swift
/// try withTemporaryDirectory { directory in
///     try write("{}", to: directory.appending(path: "empty.json"))
/// }
/// ```
///
/// - Parameter body: Receives the directory's URL.
/// - Throws: What `body` throws, or the error creating the directory.
public func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory.appending(path: "tracksnap-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}

/// Writes UTF-8 text to a file, creating the directories above it.
///
/// ```swift
/// try write("[]", to: directory.appending(path: "nested/szimpla.json"))
/// ```
///
/// - Parameters:
///   - text: The file's whole contents.
///   - url: Where to write it.
/// - Throws: The file system's error.
public func write(_ text: String, to url: URL) throws {
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
}

/// The same for an async body.
public func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appending(path: "tracksnap-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}
