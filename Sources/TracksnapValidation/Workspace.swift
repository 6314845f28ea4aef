import Foundation
public import TracksnapJSON
import TracksnapSnapshot
package import TracksnapYAML

/// Where a check's files are and what its profiles may name: the directory profile names are
/// looked up in, the validators and filters of your own (`Extensions`), and, for the server,
/// the root that every file a caller names must stay under.
///
/// Every loader opens the files it is named through `path(_:field:)` — a snapshot, a profile
/// path, each file a profile `extends` — so that confinement has one home.
///
/// ```swift
/// let workspace = Workspace()                                            // the command line: any file
/// let server = Workspace(validators: "Validators", root: "/work/app")    // the control API
/// try server.path("Snapshots/checkout.json", field: "snapshot")          // "/work/app/Snapshots/checkout.json"
/// try server.path("../../etc/shadow", field: "snapshot")                 // throws: … is outside the root /work/app
/// ```
public struct Workspace: Sendable {
    /// Where profile names (`segment`, `shop`) are looked up before the built-in ones. The
    /// operator's choice: names are not confined to the root, paths are. Unless it was named,
    /// a snapshot's names are looked up in the nearest `Validators` beside or above it
    /// (`checking(_:)`).
    public let validators: String
    /// Whether `validators` was named (`--validators-dir`), rather than the default.
    private let validatorsNamed: Bool
    /// The root, absolute, with its own symlinks followed; nil when any file may be named.
    public let root: String?
    /// The validators and filters of your own that profiles may name.
    public let extensions: Extensions
    /// The protobuf decoders its profiles made, kept while their descriptor sets are unchanged
    /// (`LoadedProtobufDecoders`): the server's one workspace gives every stream and validate
    /// call on a profile the same decoder.
    package let protobufDecoders: LoadedProtobufDecoders

    /// - Parameters:
    ///   - validators: where profile names are looked up; nil: `Validators` in the root, else
    ///     in the working directory, unless a snapshot has one nearer (`checking(_:)`).
    ///   - root: the directory named files must stay under (relative: against the working
    ///     directory); nil: no confinement.
    ///   - extensions: the validators and filters profiles may name; by default, what
    ///     `ValidatorRegistry` and `FilterRegistry` hold now.
    public init(validators: String? = nil, root: String? = nil, extensions: Extensions = .registered) {
        self.extensions = extensions
        protobufDecoders = LoadedProtobufDecoders()
        let current = FileManager.default.currentDirectoryPath
        self.root = root.map { root in
            let absolute = Self.absolute(root, against: current)
            return Self.realPath(absolute) ?? absolute
        }
        validatorsNamed = validators != nil
        // With a root, relative paths mean the root's; a validators directory named stays where it was named.
        if let validators {
            self.validators = root == nil ? validators : Self.absolute(validators, against: current)
        } else {
            self.validators = self.root.map { Self.absolute("Validators", against: $0) } ?? "Validators"
        }
    }

    /// The same workspace, its decoders shared, with names looked up in `validators`.
    private init(_ workspace: Workspace, validators: String) {
        self.validators = validators
        validatorsNamed = workspace.validatorsNamed
        root = workspace.root
        extensions = workspace.extensions
        protobufDecoders = workspace.protobufDecoders
    }

    /// The workspace a snapshot is checked or recorded in: unless `validators` was named, its
    /// profile names are looked up in the nearest `Validators` directory beside the snapshot or
    /// above it (never above the root), so that a snapshot means the same profile from any
    /// working directory; else in `validators`. The one rule for the command line, the server
    /// and Swift tests.
    ///
    /// ```swift
    /// Workspace().checking("app/Snapshots/checkout.json").validators  // "app/Validators"
    /// ```
    /// - Parameter snapshot: the snapshot's path, as `path(_:field:)` resolved it.
    package func checking(_ snapshot: String) -> Workspace {
        guard !validatorsNamed else { return self }
        let current = FileManager.default.currentDirectoryPath
        let absolute = Self.absolute(snapshot, against: current)
        var directory = ((absolute as NSString).standardizingPath as NSString).deletingLastPathComponent
        while !directory.isEmpty {
            if let root, directory != root, !directory.hasPrefix(root.hasSuffix("/") ? root : root + "/") { break }
            let candidate = (directory as NSString).appendingPathComponent("Validators")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), isDirectory.boolValue {
                // Named as the snapshot was: relative to the working directory when it was and it can be.
                let below = current.hasSuffix("/") ? current : current + "/"
                let relative = candidate.hasPrefix(below) ? String(candidate.dropFirst(below.count)) : candidate
                return Workspace(self, validators: snapshot.hasPrefix("/") ? candidate : relative)
            }
            let parent = (directory as NSString).deletingLastPathComponent
            if parent == directory { break }
            directory = parent
        }
        return self
    }

    /// The path to open for a file a caller named: as given without a root; with one, its real
    /// path (relative paths are relative to the root), refused unless it lies under the root.
    ///
    /// The file need not exist (a snapshot to be written): its deepest existing ancestor is
    /// resolved through its symlinks, and the rest is appended, which cannot climb back out
    /// because `..` is refused there. Nothing is opened or read.
    /// - Parameters:
    ///   - path: the path as the caller gave it.
    ///   - field: what named it, for the message (`snapshot`, `"extends" in shop.json:`).
    /// - Throws: `InputError` naming the field and the root.
    public func path(_ path: String, field: String) throws(InputError) -> String {
        guard let root else { return path }
        guard !path.isEmpty, !path.contains("\0") else {
            throw InputError(file: path, message: "\(field) must be a file path under the root \(root)")
        }
        let absolute = Self.absolute(path, against: root)
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
        let outside = InputError(file: path, message: "\(field) \"\(path)\" is outside the root \(root)")
        guard var resolved = Self.realPath(existing), !rest.contains("..") else { throw outside }
        for component in rest where component != "." {
            resolved = (resolved as NSString).appendingPathComponent(component)
        }
        guard resolved == root || resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/") else { throw outside }
        return resolved
    }

    /// A file a caller named, resolved once (`file(_:field:)`): what to open, and how reports and
    /// errors name it, as the caller named it (never turned back from the resolved path).
    package struct File: Sendable, Hashable {
        /// As the caller gave it.
        package let named: String
        /// What `path(_:field:)` resolved it to.
        package let path: String
    }

    /// `path(_:field:)`, keeping the name the caller gave: for a caller that refuses a path before
    /// anything else (the control API) and hands the file on, so that it is not resolved again.
    ///
    /// ```swift
    /// try server.file("Snapshots/checkout.json", field: "snapshot")  // named "Snapshots/checkout.json", path "/work/app/Snapshots/v2/checkout.json"
    /// ```
    /// - Throws: `InputError` as `path(_:field:)` does.
    package func file(_ named: String, field: String) throws(InputError) -> File {
        File(named: named, path: try path(named, field: field))
    }

    /// The files a caller named for checking: files as given, directories searched recursively
    /// (sorted) for snapshots, profiles and plans in JSON (`isCheckedFile(_:)`), Iglu registries'
    /// schemas, RudderStack plans' YAML files (`TrackingPlan.isRudderStack(_:)`) and the files
    /// `isCassette` claims. That rule is the replay module's (`Cassette.isCassette(file:)`), which
    /// this one cannot see, so callers pass it. Each path goes through `path(_:field:)`.
    ///
    /// ```swift
    /// try Workspace().files(["Snapshots"], field: "snapshot", cassettes: Cassette.isCassette)
    /// // ["Snapshots/checkout.json", "Snapshots/onboarding/welcome.json"]
    /// ```
    /// - Parameter isCassette: whether a file (its path as found) is a cassette, given the file
    ///   whose YAML `TrackingPlan.isRudderStack` parsed just before, so that it is parsed once.
    /// - Throws: `InputError` for a path that does not exist, or that lies outside the root.
    package func files(_ paths: [String], field: String, cassettes isCassette: (SourceFile) -> Bool) throws(InputError)
        -> [String]
    {
        var files: [String] = []
        try forEachFile(paths, field: field, cassettes: isCassette) { path, _ in files.append(path) }
        return files
    }

    /// The same files, each given to `body` as the listing finds it, with the file whose YAML
    /// the listing parsed to tell it (nil for a file named, and for JSON): a caller that reads
    /// each file next (`tracksnap lint`) parses it no second time, and holds one parse at a time.
    /// Every path is resolved and looked for before the first file is given.
    ///
    /// - Throws: `InputError` for a path that does not exist, or that lies outside the root.
    package func forEachFile(
        _ paths: [String], field: String, cassettes isCassette: (SourceFile) -> Bool,
        _ body: (_ path: String, _ listed: SourceFile?) -> Void
    ) throws(InputError) {
        var roots: [(path: String, isDirectory: Bool)] = []
        for named in paths {
            let path = try path(named, field: field)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw InputError(file: named, message: "no such file or directory")
            }
            roots.append((path, isDirectory.boolValue))
        }
        for root in roots {
            guard root.isDirectory else {
                body(root.path, nil)
                continue
            }
            for entry in (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []).sorted() {
                let path = (root.path as NSString).appendingPathComponent(entry)
                if Self.isCheckedFile(entry) || TrackingPlan.igluRegistry(containing: path) != nil {
                    body(path, nil)
                    continue
                }
                let file = SourceFile(path: path)
                if TrackingPlan.isRudderStack(file) || isCassette(file) { body(path, file) }
            }
        }
    }

    /// Whether a file in a folder is JSON to check: `*.json`, but not a pending recording
    /// (`*.new.json`, which `tracksnap review` shows).
    package static func isCheckedFile(_ name: String) -> Bool {
        name.hasSuffix(".json") && !name.hasSuffix(".new.json")
    }

    /// Refuses a file a caller asked to have written (a snapshot, a cassette) when its name does
    /// not end in one of `extensions`, or when it, or a folder it lies in below the root, is
    /// named with a leading dot (`.git/config`, `.ssh/…`, `.env.json`): such files configure
    /// tools, and a control call never writes them.
    ///
    /// ```swift
    /// try server.checkWritable("/work/app/.git/config", field: "snapshot", extensions: [".json"])  // throws
    /// ```
    /// - Parameters:
    ///   - resolved: the path as `path(_:field:)` resolved it.
    ///   - field: what named it, for the message.
    ///   - extensions: the endings allowed (`[".json"]`).
    /// - Throws: `InputError` naming the field and what is allowed.
    public func checkWritable(_ resolved: String, field: String, extensions: [String]) throws(InputError) {
        let shown = display(resolved)
        let name = (resolved as NSString).lastPathComponent
        guard extensions.contains(where: { name.hasSuffix($0) && name.count > $0.count }) else {
            throw InputError(
                file: shown,
                message:
                    "\(field) \"\(shown)\" is not a \(extensions.joined(separator: ", ")) file: tracksnap writes no other"
            )
        }
        let below = root == nil ? resolved : shown
        if let dotted = below.split(separator: "/").first(where: { $0.hasPrefix(".") && $0 != "." && $0 != ".." }) {
            throw InputError(
                file: shown,
                message:
                    "\(field) \"\(shown)\" is in or is \"\(dotted)\": tracksnap writes nothing named with a leading dot"
            )
        }
    }

    /// How an answer shows a path it resolved: relative to the root.
    package func display(_ resolved: String) -> String {
        guard let root else { return resolved }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return resolved.hasPrefix(prefix) ? String(resolved.dropFirst(prefix.count)) : resolved
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
