package import TracksnapTraffic

extension Generalization {
    /// What a recording wrote other than as captured, a line each: the values recorded as
    /// patterns, a warning naming those of them that now match any string
    /// (`Generalizer.anyOfItsType`), the keys left out because some runs did not send them, the
    /// environment fields left out, and the order when it is `any`; the first `limit` of each
    /// named and the rest counted.
    ///
    /// ```swift
    /// Generalization.summary(outcome.generalized)
    /// // ["2 values recorded as patterns: /events/0/context/messageId (uuid), …",
    /// //  "1 environment field left out: /events/0/properties/$$os",
    /// //  "\"order\": \"any\" (sent in separate requests, which may arrive in any order)"]
    /// ```
    package static func summary(_ generalized: [Generalization], limit: Int = 10) -> [String] {
        func listed(_ items: [String]) -> String {
            items.prefix(limit).joined(separator: ", ")
                + (items.count > limit ? ", and \(items.count - limit) more" : "")
        }
        let environment = generalized.filter { $0.reason == Generalizer.environment }.map(\.path)
        let leftOut = generalized.filter { $0.reason == Generalizer.notInEveryRun }.map(\.path)
        let order = generalized.filter { $0.path == "/order" }
        let patterns = generalized.filter {
            $0.reason != Generalizer.environment && $0.reason != Generalizer.notInEveryRun && $0.path != "/order"
        }
        let loose = patterns.filter { $0.reason == Generalizer.anyOfItsType }.map(\.path)
        var lines: [String] = []
        if !patterns.isEmpty {
            lines.append(
                "\(patterns.count) value\(patterns.count == 1 ? "" : "s") recorded as patterns: "
                    + listed(patterns.map(\.description)))
        }
        if !loose.isEmpty {
            lines.append(
                "warning: \(loose.count) text\(loose.count == 1 ? "" : "s") that differ\(loose.count == 1 ? "s" : "") "
                    + "between runs with no shape in common now match\(loose.count == 1 ? "es" : "") any string: "
                    + "\(listed(loose)); if one should be the same in every run (an event's name), a run is not "
                    + "the same flow: check it")
        }
        if !leftOut.isEmpty {
            lines.append(
                "\(leftOut.count) key\(leftOut.count == 1 ? "" : "s") left out, not sent in every run: "
                    + listed(leftOut))
        }
        if !environment.isEmpty {
            lines.append(
                "\(environment.count) environment field\(environment.count == 1 ? "" : "s") left out: "
                    + listed(environment))
        }
        lines += order.map { "\"order\": \"any\" (\($0.reason))" }
        return lines
    }
}
