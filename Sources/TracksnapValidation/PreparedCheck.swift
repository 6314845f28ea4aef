package import TracksnapDecoders
public import TracksnapJSON
public import TracksnapSnapshot
public import TracksnapTraffic

/// A snapshot with its profile and validator, read and resolved once: checking traffic is then
/// a pure function of the requests, which a wait can call on every request that arrives.
///
/// ```swift
/// let check = try PreparedCheck(snapshotAt: "Snapshots/checkout.json")
/// check.validate(requests).passed
/// ```
public struct PreparedCheck: Sendable {
    public let snapshot: Snapshot
    /// How reports and errors name the snapshot.
    public let file: String
    public private(set) var profile: Profile
    /// The tracking plans every decoded event is checked against: the profile's `"plan"` and
    /// those given to the check.
    public let plans: [TrackingPlan]
    private let validator: any Validator
    /// What the profile's decoders made of each request so far, when the check is asked again and
    /// again as traffic arrives (`observingDecodes()`); nil decodes on every validation.
    private var decodes: DecodeCache?

    /// Reads a snapshot file and the profile it is checked under.
    ///
    /// - Parameters:
    ///   - path: the snapshot file.
    ///   - profileReference: a profile name or path; otherwise the snapshot's `validator`, otherwise `default`.
    ///   - plans: tracking plan files, on top of the profile's `"plan"`.
    ///   - workspace: where profile names are looked up, and the root files must stay under.
    /// - Throws: `InputError` for a bad snapshot, a missing or bad profile or plan, an unknown
    ///   validator, or a file outside the workspace's root.
    public init(
        snapshotAt path: String, profile profileReference: String? = nil, plans: [String] = [],
        workspace: Workspace = Workspace()
    ) throws(InputError) {
        try self.init(
            snapshotAt: workspace.file(path, field: "snapshot"), profile: profileReference,
            planFiles: Self.files(plans, in: workspace), workspace: workspace)
    }

    /// Reads a snapshot file the workspace resolved already, with plan files it resolved: the
    /// control API's, which refuses a path outside the root before anything else. Neither is
    /// resolved again, and reports name the snapshot as the caller named it.
    ///
    /// - Throws: as `init(snapshotAt:profile:plans:workspace:)` does.
    package init(
        snapshotAt file: Workspace.File, profile profileReference: String? = nil, planFiles plans: [Workspace.File],
        workspace: Workspace
    ) throws(InputError) {
        try self.init(
            try Validation.snapshot(at: file.path, named: file.named), file: file.named, profile: profileReference,
            planFiles: plans,
            workspace: workspace.checking(file.path))
    }

    /// Resolves the profile of a snapshot already read (from a request's body, say).
    ///
    /// - Parameters:
    ///   - snapshot: the snapshot.
    ///   - file: how errors and reports name the snapshot.
    ///   - profileReference: a profile name or path; otherwise the snapshot's `validator`, otherwise `default`.
    ///   - plans: tracking plan files, on top of the profile's `"plan"`.
    ///   - workspace: where profile names are looked up, and the root files must stay under.
    /// - Throws: `InputError` for a missing or bad profile or plan, an unknown validator, or a
    ///   file outside the workspace's root.
    public init(
        _ snapshot: Snapshot, file: String, profile profileReference: String? = nil, plans: [String] = [],
        workspace: Workspace = Workspace()
    ) throws(InputError) {
        try self.init(
            snapshot, file: file, profile: profileReference, planFiles: Self.files(plans, in: workspace),
            workspace: workspace)
    }

    /// `init(_:file:profile:plans:workspace:)` with plan files the workspace resolved already.
    package init(
        _ snapshot: Snapshot, file: String, profile profileReference: String? = nil, planFiles plans: [Workspace.File],
        workspace: Workspace
    ) throws(InputError) {
        if profileReference == nil {
            let unknown = Profile.unknownNames(in: snapshot, workspace: workspace)
            if !unknown.isEmpty { throw InputError(unknown) }
        }
        var profile = try Profile.load(profileReference ?? snapshot.validator ?? "default", workspace: workspace)
        profile.plans += plans.map(\.named).filter { !profile.plans.contains($0) }
        try self.init(snapshot, file: file, profile: profile, planFiles: plans, workspace: workspace)
    }

    /// Checks a snapshot under a profile already loaded (a recorder's).
    ///
    /// - Parameters:
    ///   - snapshot: the snapshot.
    ///   - file: how errors and reports name the snapshot.
    ///   - profile: the profile.
    ///   - extensions: where the profile's validator is found.
    /// - Throws: `InputError` for a decoder or validator the profile names that does not exist,
    ///   or a bad plan.
    public init(_ snapshot: Snapshot, file: String, profile: Profile, extensions: Extensions) throws(InputError) {
        try self.init(snapshot, file: file, profile: profile, workspace: Workspace(extensions: extensions))
    }

    /// Checks a snapshot under a profile already loaded through `workspace` (a recorder's), whose
    /// plans it reads through the same workspace, confined to its root.
    package init(_ snapshot: Snapshot, file: String, profile: Profile, workspace: Workspace) throws(InputError) {
        try self.init(snapshot, file: file, profile: profile, planFiles: [], workspace: workspace)
    }

    /// The profile's plans are read through the workspace, which confines them to its root; those
    /// among `given` it resolved already.
    private init(
        _ snapshot: Snapshot, file: String, profile: Profile, planFiles given: [Workspace.File], workspace: Workspace
    ) throws(InputError) {
        let extensions = workspace.extensions
        try profile.requireKnownDecoders(file: file)
        guard let validator = extensions.validators[profile.validator] else {
            throw InputError(
                file: profile.file ?? file,
                message:
                    "no validator is registered as \"\(profile.validator)\"; \(Extensions.howToAdd(with: "ValidatorRegistry"))"
            )
        }
        var profile = profile
        let (personalData, problems) = PersonalDataPolicy.applying(snapshot, to: profile.personalData)
        let (consent, consentProblems) = ConsentDeclaration.applying(snapshot, to: profile.consent)
        if (problems + consentProblems).contains(where: { $0.severity == .error }) {
            throw InputError(problems + consentProblems)
        }
        profile.personalData = personalData
        profile.consent = consent
        self.snapshot = snapshot
        self.file = file
        self.profile = profile
        self.validator = validator
        var plans: [TrackingPlan] = []
        for path in profile.plans {
            let resolved: String
            if let file = given.first(where: { $0.named == path }) {
                resolved = file.path
            } else {
                resolved = try workspace.path(path, field: "plan")
            }
            plans.append(try TrackingPlan.load(path: resolved, named: path, workspace: workspace))
        }
        self.plans = plans
    }

    /// Plan paths as a caller named them, each resolved once.
    private static func files(_ paths: [String], in workspace: Workspace) throws(InputError) -> [Workspace.File] {
        var files: [Workspace.File] = []
        for path in paths { files.append(try workspace.file(path, field: "plan")) }
        return files
    }

    /// A check of a profile alone, with no snapshot: nothing is expected and any traffic is
    /// allowed, so what it finds is what the profile checks on its own: its vendor rules.
    ///
    /// ```swift
    /// let rules = try PreparedCheck(profileAlone: "ga4")
    /// rules.validate(requests).findings  // a vendor_rule for each broken GA4 limit
    /// ```
    /// With plans, it checks them too (the `default` profile's traffic when none is named).
    /// - Parameters:
    ///   - source: what stands where a snapshot's file would in reports and errors: by default
    ///     `plans` when only plans are checked, else `profile NAME`; the CLI names its own
    ///     options there (`--plan`, `--validator ga4`).
    /// - Throws: `InputError` for a profile or plan that cannot be loaded.
    public init(
        profileAlone reference: String, plans: [String] = [], workspace: Workspace = Workspace(),
        source: String? = nil
    ) throws(InputError) {
        try self.init(
            profileAlone: reference, planFiles: Self.files(plans, in: workspace), workspace: workspace, source: source)
    }

    /// `init(profileAlone:plans:workspace:source:)` with plan files the workspace resolved
    /// already: the report names them as the caller did.
    package init(
        profileAlone reference: String, planFiles plans: [Workspace.File], workspace: Workspace, source: String? = nil
    ) throws(InputError) {
        let plansAlone = reference == "default" && !plans.isEmpty
        let label = source ?? (plansAlone ? "plans" : "profile \(reference)")
        var snapshot = try Snapshot.parse(Array(#"{"requests": [], "unexpected": "allow"}"#.utf8), file: label)
        snapshot.name = plansAlone ? plans.map(\.named).joined(separator: ", ") : reference
        try self.init(snapshot, file: label, profile: reference, planFiles: plans, workspace: workspace)
    }

    /// This check under the consent the run declares (`tracksnap validate --consent`, the control
    /// API's `consent`, `assertTracking(consent:)`), which wins over the snapshot's and the
    /// profile's `"consent"`; nil keeps theirs.
    ///
    /// ```swift
    /// try check.declaring(consent: ConsentDeclaration(parsing: "denied")).validate(requests)
    /// ```
    public func declaring(consent: ConsentDeclaration?) -> PreparedCheck {
        guard let consent else { return self }
        var check = self
        check.profile.consent = consent
        return check
    }

    /// Checks everything captured, in order: the snapshot, then the vendor rules the profile
    /// turns on (`vendor_rule`), then personal data (`personal_data`), then consent (`consent`), then the plans (`unplanned_event`, `plan_violation`, and the
    /// planned events never sent in `unsentPlanned`). A request a cassette had no answer for is a `replay_miss`
    /// whatever the profile selects: the app got a 599 instead of its backend's answer, so what
    /// it sent afterwards is not what the flow sends.
    public func validate(_ requests: [CapturedRequest]) -> SnapshotResult {
        DecodeCache.$current.withValue(decodes) { validateOnce(requests) }
    }

    private func validateOnce(_ requests: [CapturedRequest]) -> SnapshotResult {
        // One selection, decoded once, that the validator, the rules, the personal-data and
        // consent checks and the plans all read.
        let selection = profile.select(requests, decodingEvents: true)
        var result = validator.validate(snapshot, selection: selection, profile: profile)
        result.findings += profile.ruleFindings(requests, selection: { selection })
        let privacy = profile.personalData(in: requests, selection: { selection })
        result.findings += privacy.findings
        result.findings += profile.consentFindings(requests, selection: { selection })
        let planCheck = profile.planCheck(plans, requests, selection: { selection })
        result.findings += planCheck.findings
        result.unsentPlanned = planCheck.unsent
        result.checkedPlans = !plans.isEmpty
        for (index, request) in requests.enumerated() {
            guard let miss = request.replayMiss else { continue }
            result.findings.append(
                Finding(
                    code: .replayMiss, severity: profile.severities[.replayMiss] ?? .error, path: "",
                    // One line: the miss's first, and the nearest recorded request's.
                    message: miss.split(separator: "\n").prefix(3).map { $0.drop { $0 == " " } }
                        .joined(separator: "; "),
                    request: RequestReference(
                        id: request.id, index: index, method: request.method, url: request.urlWithoutQuery)))
        }
        // Secrets are hidden and personal data masked wherever a finding quotes traffic (a plan
        // violation's value and message, a rule's), as the snapshot's own findings already are:
        // the secrets of the requests the findings name, searched for only when there are findings,
        // and every value the personal-data check found (an IP address in an event's properties).
        guard !result.findings.isEmpty else { return result }
        let quoted = Set(result.findings.compactMap(\.request?.index)).filter(requests.indices.contains)
        let secrets = quoted.reduce(into: Set<String>()) { found, index in
            let view = requests[index].validationView
            found.formUnion(requests[index].carriedSecrets(view: view))
            found.formUnion(profile.redact.strings(in: view))
        }
        return Redactor(secrets: secrets, personalData: privacy.found).redact(result)
    }

    /// Whether a wait for traffic is over: every expected entry is paired with a request. The
    /// built-in validator answers from the alignment alone; one of your own validates.
    package func hasEverythingExpected(_ requests: [CapturedRequest]) -> Bool {
        // The snapshot alone: rules and replay misses decide nothing about what is still to come.
        DecodeCache.$current.withValue(decodes) {
            let selection = profile.select(requests, decodingEvents: true)
            if let builtIn = validator as? SnapshotValidator {
                return builtIn.hasEverythingExpected(snapshot, selection: selection, profile: profile)
            }
            return !validator.validate(snapshot, selection: selection, profile: profile).entries.contains {
                $0.status == .missing
            }
        }
    }

    /// This check, keeping what its decoders make of each request for its later validations: for
    /// a wait, which asks on every arrival, over requests whose ids a store or a capture numbered
    /// (unique), so that each request is decoded once.
    package func observingDecodes() -> PreparedCheck {
        observingDecodes(in: DecodeCache())
    }

    /// This check, reading and keeping what its decoders make of each request in `decodes`: the
    /// server's, which reads each request's decodings from the store's observation of it
    /// (`DecodeCache.init(perRequest:)`), so that a decoder its inspectors share decodes a request
    /// once for them and for the wait and the validation.
    package func observingDecodes(in decodes: DecodeCache) -> PreparedCheck {
        var check = self
        check.decodes = decodes
        return check
    }
}
