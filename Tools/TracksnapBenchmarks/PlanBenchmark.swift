import Foundation
import JSONSchemaValidation
import TracksnapDecoders
import TracksnapJSON
import TracksnapValidation

/// Times checking events against a tracking plan, for `Benchmarks/plan.sh` (`make bench-plan`):
/// `TracksnapBenchmarks plan PLAN EVENTS` reads a native plan and JSON lines of
/// `{"event": NAME, "properties": {…}}` (`Benchmarks/plan_events.py` writes both), then times one
/// pass over the events of each of two ways, and prints for each `NAME VALID SECONDS`:
/// `tracksnap-plan`, `TrackingPlan.check` on each event as a decoded Segment track (what
/// `validate --plan` runs on every event: the definitions by type and name, every violation with
/// its finding), and `tracksnap-schema`, `JSONSchema.isValid` of the event's compiled schema found
/// by name, as the Python peers are measured.
func runPlanBenchmark(planPath: String, eventsPath: String) -> Bool {
    let plan: TrackingPlan
    let lines: [Substring]
    do {
        plan = try TrackingPlan.load(path: planPath)
        lines = try String(contentsOfFile: eventsPath, encoding: .utf8).split(separator: "\n")
    } catch {
        print("plan benchmark: \(error)")
        return false
    }
    var events: [AnalyticsEvent] = []
    events.reserveCapacity(lines.count)
    for (index, line) in lines.enumerated() {
        guard let value = try? JSONDocument.parse(line.utf8, file: eventsPath, trackLocations: false).value,
            let name = value["event"]?.stringValue, let properties = value["properties"]
        else {
            print("plan benchmark: line \(index + 1) of \(eventsPath) is no {\"event\", \"properties\"} object")
            return false
        }
        events.append(
            AnalyticsEvent(
                vendor: "segment", type: "track", name: name, properties: properties, request: "bench", index: index))
    }
    let request = RequestReference(id: "bench", index: 0, method: "POST", url: "http://127.0.0.1/v1/batch")
    let clock = ContinuousClock()

    var planValid = 0
    let planTime = clock.measure {
        for event in events where plan.check(event, severity: { _ in .error }, request: request).findings.isEmpty {
            planValid += 1
        }
    }
    print("tracksnap-plan \(planValid) \(planTime.seconds)")

    var schemas: [String: JSONSchema] = [:]
    for definition in plan.definitions { schemas[definition.name ?? ""] = definition.schema }
    var schemaValid = 0
    let schemaTime = clock.measure {
        for event in events where schemas[event.name ?? ""]?.isValid(event.properties) == true { schemaValid += 1 }
    }
    print("tracksnap-schema \(schemaValid) \(schemaTime.seconds)")
    return true
}

extension Duration {
    fileprivate var seconds: String {
        String(format: "%.6f", Double(components.seconds) + Double(components.attoseconds) / 1e18)
    }
}
