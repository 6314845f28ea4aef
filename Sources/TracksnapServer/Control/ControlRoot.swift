import Foundation

/// The directory the control API's paths are confined to (`serve --root DIR`, by default the
/// working directory): a path is resolved against it and after following symlinks, and one
/// that ends up outside is refused before anything reads or writes it.
///
/// ```swift
/// let root = ControlRoot("/work/app")
/// try root.resolve("Snapshots/checkout.json", field: "snapshot")  // "/work/app/Snapshots/checkout.json"
/// try root.resolve("../../etc/shadow", field: "snapshot")         // throws: … is outside the root /work/app
/// ```
struct ControlRoot: Sendable {
    /// The root, absolute, with its own symlinks followed.
    let path: String

    /// - Parameter directory: the root; nil or relative: against the working directory.
    init(_ directory: String? = nil) {
        let current = FileManager.default.currentDirectoryPath
        let absolute = Self.absolute(directory ?? current, against: current)
        path = Self.realPath(absolute) ?? absolute
    }

    /// A path refused because it leads outside the root, or cannot be a file path at all.
    struct Refusal: Error, Sendable {
        var message: String
    }

    /// The real path of `path` (relative paths are relative to the root), refused unless it
    /// lies under the root.
    ///
    /// The file need not exist (a snapshot to be written): its deepest existing ancestor is
    /// resolved through its symlinks, and the rest is appended, which cannot climb back out
    /// because `..` is refused there. Nothing is opened or read.
    /// - Parameters:
    ///   - path: the path as the request gave it.
    ///   - field: the request's field, for the message.
    /// - Throws: `Refusal` naming the field and the root.
    func resolve(_ path: String, field: String) throws(Refusal) -> String {
        guard !path.isEmpty, !path.contains("\0") else {
            throw Refusal(message: "\(field) must be a file path under the root \(self.path)")
        }
        let absolute = Self.absolute(path, against: self.path)
        var existing = absolute
        var rest: [String] = []
        while Self.realPath(existing) == nil {
            // String operations, not URL's: these keep a `..` as the component it is.
            let last = (existing as NSString).lastPathComponent
            let parent = (existing as NSString).deletingLastPathComponent
            if parent == existing || last.isEmpty { break }
            rest.insert(last, at: 0)
            existing = parent
        }
        guard var resolved = Self.realPath(existing), !rest.contains("..") else { throw outside(path, field) }
        for component in rest where component != "." {
            resolved = (resolved as NSString).appendingPathComponent(component)
        }
        guard resolved == self.path || resolved.hasPrefix(self.path.hasSuffix("/") ? self.path : self.path + "/") else {
            throw outside(path, field)
        }
        return resolved
    }

    /// How an answer shows a path it resolved: relative to the root.
    func display(_ resolved: String) -> String {
        let prefix = path.hasSuffix("/") ? path : path + "/"
        return resolved.hasPrefix(prefix) ? String(resolved.dropFirst(prefix.count)) : resolved
    }

    private func outside(_ path: String, _ field: String) -> Refusal {
        Refusal(message: "\(field) \"\(path)\" is outside the root \(self.path)")
    }

    private static func absolute(_ path: String, against base: String) -> String {
        path.hasPrefix("/") ? path : (base as NSString).appendingPathComponent(path)
    }

    /// `realpath(3)`: every symlink followed, `..` and `.` resolved; nil when the path does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
