import Foundation
import JSONSchemaValidation
public import TracksnapDecoders
public import TracksnapJSON
package import TracksnapTraffic

extension TrackingPlan {
    /// The call types a plan defines events of.

    /// The call type an event counts as in a plan: Segment's and RudderStack's own, and a
    /// named event of any other vendor (GA4's `event`, Mixpanel's `track`, PostHog's `capture`)
    /// as a `track`; nil for a call no plan defines (an alias, an unnamed event).
    static func plannedType(of event: AnalyticsEvent) -> String? {
        switch event.type {
        case "track", "page", "screen", "identify", "group": return event.type
        default: break
        }
        return event.name == nil || event.type == "alias" ? nil : "track"
    }

    /// The whole call a Segment rule describes, rebuilt from the decoded event: the rest of
    /// the call (`context`, `userId`, `messageId`…, as the decoder keeps it in `context`), the
    /// `type`, the `event` (a track's name) or `name` (a page's or screen's), and `properties`,
    /// or `traits` for an identify or a group.
    ///
    /// ```swift
    /// TrackingPlan.callView(of: event, type: "track")  // {"type": "track", "event": "Order Completed", "properties": {…}, "context": {…}, "userId": …}
    /// ```
    public static func callView(of event: AnalyticsEvent, type: String) -> JSONValue {
        var call = event.context.objectValue ?? [:]
        call["type"] = .string(type)
        switch type {
        case "track": call["event"] = event.name.map(JSONValue.string)
        case "page", "screen": call["name"] = event.name.map(JSONValue.string)
        default: break
        }
        call[type == "identify" || type == "group" ? "traits" : "properties"] = event.properties
        return .object(call)
    }

    /// What a definition's schema is checked against, and the JSON Pointer that value has in
    /// the call (`/properties`, `/traits`, or the call itself).
    static func instance(of event: AnalyticsEvent, type: String, subject: Subject) -> (JSONValue, prefix: String) {
        switch subject {
        case .call: (callView(of: event, type: type), "")
        case .properties: (event.properties, type == "identify" || type == "group" ? "/traits" : "/properties")
        case .mParticleEvent:
            (
                .object([
                    "data": .object([
                        type == "track" ? "event_name" : "screen_name": event.name.map(JSONValue.string) ?? .null,
                        "custom_attributes": event.properties,
                    ])
                ]), ""
            )
        }
    }

    /// One plan's findings on one event: an `unplanned_event` when the plan has no definition
    /// of it, else a `plan_violation` per schema failure of its definition and of the plan's
    /// rules for every call. Also the indices of the definitions the event matched, for coverage.
    package func check(
        _ event: AnalyticsEvent, severity: (FindingCode) -> Severity, request: RequestReference
    ) -> (findings: [Finding], matched: [Int]) {
        if format == .iglu { return checkIglu(event, severity: severity, request: request) }
        guard let type = Self.plannedType(of: event) else { return ([], []) }
        // Named only in a finding: most events conform (and the closure holds two values, not a
        // copy of the event).
        let name = event.name
        let position = event.index + 1
        func subject() -> String { "\(type)\(name.map { " \"\($0)\"" } ?? "") (event \(position))" }
        // Its type's definitions of its name and of every name, in the plan's order.
        let ofType = byType[type]
        let named = name.flatMap { ofType?.named[$0] } ?? []
        let unnamed = ofType?.unnamed ?? []
        let own = unnamed.isEmpty ? named : named.isEmpty ? unnamed : (named + unnamed).sorted()
        var findings: [Finding] = []
        // Only a named event can be unplanned: a page the plan lists none like, a track it lacks.
        let definesType = ofType != nil
        if own.isEmpty, type == "track" || ((type == "page" || type == "screen") && definesType) {
            findings.append(
                Finding(
                    code: .unplannedEvent, severity: severity(.unplannedEvent), path: "",
                    message: "\(subject()) is not in the plan \(file)", request: request, file: file))
        }
        for index in everyCall.isEmpty ? own : own + everyCall {
            let (instance, prefix) = Self.instance(of: event, type: type, subject: definitions[index].subject)
            findings += violations(of: index, instance, prefix: prefix, subject: subject(), severity: severity).map {
                var finding = $0
                finding.request = request
                return finding
            }
        }
        return (findings, own)
    }

    /// A `plan_violation` per schema failure of `instance` (which stands at `prefix` in the event)
    /// against the definition at `index`.
    func violations(
        of index: Int, _ instance: JSONValue, prefix: String, subject: @autoclosure () -> String,
        severity: (FindingCode) -> Severity
    ) -> [Finding] {
        // Most events conform: the check that stops at the first failure and builds no message
        // first, the definition read in place (a copy would retain each of its fields).
        guard !definitions[index].schema.isValid(instance) else { return [] }
        let definition = definitions[index]
        let subject = subject()
        return definition.schema.validate(instance).map { violation in
            var path = prefix + violation.instancePath
            // mParticle's custom attributes are the event's properties.
            if definition.subject == .mParticleEvent {
                for (from, to) in [("/data/custom_attributes", "/properties"), ("/data", "")]
                where path == from || path.hasPrefix(from + "/") {
                    path = to + path.dropFirst(from.count)
                    break
                }
            }
            let file = violation.file ?? definition.file
            let place = violation.location.map { "\(file):\($0.line):\($0.column)" } ?? file
            return Finding(
                code: .planViolation, severity: severity(.planViolation), path: path,
                location: violation.location, expected: fragment(of: violation, in: definition),
                actual: instance.value(atPointer: violation.instancePath),
                message:
                    "\(subject) at \(path.isEmpty ? "/" : path): \(violation.keyword): \(violation.message) (\(definition.title) in \(place))",
                file: file)
        }
    }

    /// The keyword that failed with its value, as the plan writes it: `{"type": "number"}`,
    /// `{"required": ["revenue"]}`. Nil when the keyword is in another document.
    private func fragment(of violation: SchemaViolation, in definition: Definition) -> JSONValue? {
        // Split at the first "#" by bytes: splitting the String into Characters was most of a
        // finding's time (a schema path holds the whole URI).
        let path = violation.schemaPath
        guard let hash = path.utf8.firstIndex(of: UInt8(ascii: "#")), path[..<hash] == definition.uri
        else { return nil }
        // Foundation's decoding is slow, and most schema paths have nothing to decode.
        let fragment = String(path[path.utf8.index(after: hash)...])
        let pointer =
            fragment.utf8.contains(UInt8(ascii: "%")) ? fragment.removingPercentEncoding ?? fragment : fragment
        guard let keyword = JSONPointer.tokens(pointer).last,
            let value = definition.schemaValue.value(atPointer: pointer)
        else { return nil }
        return .object([keyword: value])
    }
}

/// Several plans' check of a run: findings, and the planned events nothing sent.
package struct PlanCheck {
    package var findings: [Finding] = []
    /// `Validators/shop.plan.json: track "Order Completed"`, in plan order.
    package var unsent: [PlannedEvent] = []
}

extension Profile {
    /// The plans' findings on every event the profile's decoders make of the selected traffic
    /// (every decoder when the profile names none; `selection`, asked only when there are
    /// plans), and the planned events none of them matched.
    package func planCheck(_ plans: [TrackingPlan], _ requests: [CapturedRequest], selection: () -> Selection)
        -> PlanCheck
    {
        var check = PlanCheck()
        guard !plans.isEmpty else { return check }
        var matched = plans.map { Array(repeating: false, count: $0.definitions.count) }
        let selection = selection()
        for (index, decoded) in zip(selection.selected, selection.decoded) {
            guard case .events(let events) = decoded else { continue }
            let request = requests[index]
            let reference = RequestReference(
                id: request.id, index: index, method: request.method, url: request.urlWithoutQuery)
            for event in events {
                for (planIndex, plan) in plans.enumerated() {
                    let (findings, own) = plan.check(
                        event, severity: { severities[$0] ?? .error }, request: reference.event(event.index))
                    check.findings += findings
                    for definition in own { matched[planIndex][definition] = true }
                }
            }
        }
        for (planIndex, plan) in plans.enumerated() {
            for (index, definition) in plan.definitions.enumerated()
            where definition.type != nil && !matched[planIndex][index] {
                check.unsent.append(
                    PlannedEvent(title: definition.title, file: definition.file, location: definition.location))
            }
        }
        return check
    }
}
