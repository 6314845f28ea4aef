import Foundation
public import TracksnapJSON
package import TracksnapSnapshot
import TracksnapTraffic

extension Profile {
    /// Finds a profile by name, or several joined by commas, or reads it from a path.
    ///
    /// ```swift
    /// let profile = try Profile.load("segment")            // Validators/segment.json, else the built-in
    /// let both = try Profile.load("segment,ga4")           // composed: see `Profile.combining(_:)`
    /// let mine = try Profile.load("Config/shop.json")
    /// ```
    /// A reference containing `/` or ending in `.json` is a path. A name is looked up as
    /// `directory/NAME.json` first, then among the profiles built into tracksnap
    /// (`Profile.builtInNames`): a file of the same name wins over the built-in.
    /// - Parameters:
    ///   - reference: a name, a path, or several of them separated by commas.
    ///   - workspace: where names are looked up first, and the root paths must stay under.
    /// - Throws: `InputError` for a missing profile (listing those available), a bad one, or a
    ///   path outside the workspace's root.
    public static func load(_ reference: String, workspace: Workspace = Workspace()) throws(InputError) -> Profile {
        let references = reference.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
        guard !references.isEmpty else {
            throw InputError(
                file: workspace.validators,
                message: "no validator profile named; name one (\"segment\") or several (\"segment,ga4\")")
        }
        let catalog = ProfileCatalog(workspace: workspace)
        var profiles: [Profile] = []
        for reference in references {
            profiles.append(try catalog.profile(named: reference, chain: []))
        }
        return combining(profiles)
    }

    /// The names of the profiles built into tracksnap: `default` and one per vendor (`segment`, `ga4`…).
    public static var builtInNames: [String] { BuiltInProfiles.sources.keys.sorted() }

    /// A profile built into tracksnap, as shipped (a file in `Validators/` does not change it).
    ///
    /// ```swift
    /// Profile.builtIn("segment")?.decoders  // ["segment"]
    /// ```
    public static func builtIn(_ name: String) -> Profile? {
        guard let document = BuiltInProfiles.document(named: name) else { return nil }
        return try? ProfileCatalog(workspace: Workspace(validators: BuiltInProfiles.directory)).profile(
            from: document, chain: [])
    }

    /// The built-in `default` profile: every request but what browsers send for themselves, strict
    /// order, extras fail.
    public static let builtInDefault = builtIn("default") ?? Profile(name: "default")

    /// Whether this name is one of tracksnap's built-in profiles (a file of that name overrides it).
    package static func isBuiltIn(_ name: String) -> Bool { BuiltInProfiles.sources[name] != nil }

    /// The names a snapshot's `validator` can take: the workspace's profiles and the built-in ones.
    package static func available(workspace: Workspace = Workspace()) -> [String] {
        ProfileCatalog(workspace: workspace).available()
    }

    /// A snapshot's `validator` names that resolve to no profile, each an error at its line and
    /// column in the snapshot (paths are left to loading, which names the missing file).
    ///
    /// ```swift
    /// Profile.unknownNames(in: snapshot)  // [Snapshots/x.json:2:27: error: no validator profile "ga44" (not in Validators/, not built in); did you mean ga4? available: …]
    /// ```
    package static func unknownNames(in snapshot: Snapshot, workspace: Workspace = Workspace()) -> [Diagnostic] {
        guard let reference = snapshot.validator else { return [] }
        let names = reference.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let available = available(workspace: workspace)
        return names.enumerated().compactMap { index, name in
            guard !name.contains("/"), !name.hasSuffix(".json"), !available.contains(name) else { return nil }
            let pointer = snapshot.locations["/validator/0"] == nil ? "/validator" : "/validator/\(index)"
            return Diagnostic(
                .error, file: snapshot.file, path: pointer, location: snapshot.locations[pointer],
                message: "no validator profile \"\(name)\" (not in \(workspace.validators)/, not built in)"
                    + ProfileCatalog.hint(for: name, among: available))
        }
    }
}

/// The profiles shipped inside tracksnap: the JSON files of `Profile/BuiltIn/`, embedded in the
/// binary by SwiftPM (`resources: [.embedInCode(…)]`), so no bundle is looked up at run time.
enum BuiltInProfiles {
    /// How a built-in profile's file is named in messages (`<built-in>/segment.json:3:5`).
    static let directory = "<built-in>"

    static let sources: [String: [UInt8]] = [
        "default": PackageResources.default_json,
        "adjust": PackageResources.adjust_json,
        "amplitude": PackageResources.amplitude_json,
        "branch": PackageResources.branch_json,
        "firebase": PackageResources.firebase_json,
        "ga4": PackageResources.ga4_json,
        "meta-app": PackageResources.meta_app_json,
        "meta-pixel": PackageResources.meta_pixel_json,
        "mixpanel": PackageResources.mixpanel_json,
        "posthog": PackageResources.posthog_json,
        "rudderstack": PackageResources.rudderstack_json,
        "segment": PackageResources.segment_json,
        "snowplow": PackageResources.snowplow_json,
        "universal-analytics": PackageResources.universal_analytics_json,
    ]

    static func document(named name: String) -> JSONDocument? {
        guard let bytes = sources[name] else { return nil }
        return try? JSONDocument.parse(bytes, file: "\(directory)/\(name).json")
    }
}

/// Where profile names resolve: `directory/NAME.json`, else a built-in profile. Applies
/// `extends` and finds its cycles. Every path is opened through the workspace, so that a
/// profile under a root cannot extend a file outside it.
struct ProfileCatalog {
    let workspace: Workspace
    var directory: String { workspace.validators }

    init(workspace: Workspace) { self.workspace = workspace }

    /// The catalog a profile file's `extends` uses: the file's own directory.
    init(beside file: String, extensions: Extensions = .registered) {
        workspace = Workspace(validators: (file as NSString).deletingLastPathComponent, extensions: extensions)
    }

    /// Reads a profile by reference (name or path), applying what it extends.
    func profile(named reference: String, chain: [String]) throws(InputError) -> Profile {
        try profile(from: document(for: reference, extendedBy: nil), chain: chain)
    }

    func profile(from document: JSONDocument, chain: [String]) throws(InputError) -> Profile {
        let (profile, diagnostics) = read(document, chain: chain)
        let errors = diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty, let profile else { throw InputError(errors) }
        return profile
    }

    /// A profile and every problem found in it and in what it extends.
    func read(_ document: JSONDocument, chain: [String]) -> (profile: Profile?, diagnostics: [Diagnostic]) {
        var parser = MatcherParser(document: document)
        guard var own = ProfileReader.read(document, extensions: workspace.extensions, &parser) else {
            return (nil, parser.diagnostics)
        }
        var diagnostics = parser.diagnostics
        if let protobuf = own.protobuf {
            own.messageDecoders = protobuf.decoders(document: document, workspace: workspace, &diagnostics)
        }
        guard !own.extends.isEmpty else { return (own, diagnostics) }

        let chain = chain + [document.file]
        let isList = document.value["extends"]?.arrayValue != nil
        var bases: [Profile] = []
        for (index, name) in own.extends.enumerated() {
            let pointer = isList ? JSONPointer.appending("/extends", index) : "/extends"
            func report(_ message: String) {
                diagnostics.append(
                    Diagnostic(
                        .error, file: document.file, path: pointer, location: document.locations[pointer],
                        message: message))
            }
            let base: JSONDocument
            do throws(InputError) {
                base = try self.document(for: name, extendedBy: document.file)
            } catch {
                report(error.diagnostics.first?.message ?? "no profile \"\(name)\"")
                continue
            }
            if let start = chain.firstIndex(of: base.file) {
                let cycle = (chain[start...] + [base.file]).map(Self.displayName)
                report("\"extends\" makes a cycle: \(cycle.joined(separator: " → ")); a profile cannot extend itself")
                continue
            }
            let (profile, problems) = read(base, chain: chain)
            if let problem = problems.first(where: { $0.severity == .error }) {
                report("\"\(name)\" cannot be extended: \(problem)")
            } else if let profile {
                bases.append(profile)
            }
        }
        guard bases.count == own.extends.count else { return (own, diagnostics) }
        return (Profile.combining(bases).extended(by: own), diagnostics)
    }

    /// The document a name or path refers to. A profile that extends its own name when it is a
    /// built-in one's (a file `Validators/segment.json` with `"extends": "segment"`) extends the built-in.
    private func document(for reference: String, extendedBy file: String?) throws(InputError) -> JSONDocument {
        if reference.contains("/") || reference.hasSuffix(".json") {
            let path =
                file == nil || reference.hasPrefix("/")
                ? reference : (directory as NSString).appendingPathComponent(reference)
            let field = file.map { "\"extends\" in \(workspace.display($0)):" } ?? "validator"
            return try JSONDocument.load(path: workspace.path(path, field: field))
        }
        let path = (directory as NSString).appendingPathComponent(reference + ".json")
        let extendsBuiltIn = file.map(Self.displayName) == reference && Profile.isBuiltIn(reference)
        if !extendsBuiltIn, FileManager.default.fileExists(atPath: path) {
            return try JSONDocument.load(path: path)
        }
        if let builtIn = BuiltInProfiles.document(named: reference) { return builtIn }
        // Not the file it would have been (it does not exist): the directory looked in, when
        // there is one, else the field that names profiles.
        var isDirectory: ObjCBool = false
        let looked =
            FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) && isDirectory.boolValue
        throw InputError(
            file: looked ? directory : "validator",
            message: "no validator profile \"\(reference)\"" + Self.hint(for: reference, among: available()))
    }

    /// What follows "no validator profile X": the nearest names, then every name there is.
    ///
    /// ```swift
    /// ProfileCatalog.hint(for: "segmnet", among: ["default", "segment"])  // "; did you mean segment? available: default, segment"
    /// ```
    static func hint(for name: String, among available: [String]) -> String {
        let meant = NearestNames.didYouMean(name, among: available).map { " \($0)" } ?? ""
        return ";\(meant) available: \(available.joined(separator: ", "))"
    }

    /// The names a reference can take here: the directory's profiles and the built-in ones.
    func available() -> [String] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter(Workspace.isCheckedFile).map { String($0.dropLast(5)) }
        return Set(files + Profile.builtInNames).sorted()
    }

    private static func displayName(_ file: String) -> String {
        URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
    }
}
