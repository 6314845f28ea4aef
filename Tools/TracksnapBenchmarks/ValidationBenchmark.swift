import Foundation
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

/// Times validating N captured requests against a snapshot of N entries, in strict and any
/// order, beside the time it takes only to read and parse the same capture and snapshot.
func runValidationBenchmark() {
    print("\nValidation: N captured requests (NDJSON) against a snapshot of N entries (literals and patterns)")
    print(
        "N".padded(9) + "case".padded(34) + "parse (ms)".padded(12, right: true)
            + "validate (ms)".padded(15, right: true) + "ratio".padded(8, right: true) + "  findings")
    for count in [10_000, 100_000] {
        let workload = ValidationWorkload(count: count)
        for scenario in ValidationWorkload.Scenario.allCases {
            let capture = workload.ndjson(scenario)
            let snapshotText = workload.snapshot(order: scenario.order)
            let clock = ContinuousClock()
            var requests: [CapturedRequest] = []
            var snapshot: Snapshot?
            let parse = clock.measure {
                requests = (try? CaptureFile.read(data: Data(capture.utf8), file: "bench.ndjson")) ?? []
                snapshot = try? Snapshot.parse(Array(snapshotText.utf8), file: "bench.json")
            }
            guard let snapshot, requests.count >= count - count / 50 else {
                print("validation benchmark: the generated inputs did not parse")
                return
            }
            var result: SnapshotResult?
            let validate = clock.measure {
                result = SnapshotValidator().validate(snapshot, requests: requests, profile: .builtInDefault)
            }
            let ratio = validate / parse
            print(
                String(count).padded(9) + scenario.rawValue.padded(34) + parse.milliseconds.padded(12, right: true)
                    + validate.milliseconds.padded(15, right: true)
                    + String(format: "%.2fx", ratio).padded(8, right: true)
                    + "  \(result?.findings.count ?? -1)")
        }
    }
    print("ratio = validate / parse: what validation costs beyond reading the inputs it needs.")
}

/// A generated app session: screen views, product events and JSON purchase events.
struct ValidationWorkload {
    enum Scenario: String, CaseIterable {
        case strictIdentical = "strict order, identical"
        case strictOnePercent = "strict order, 1% changed/dropped/extra"
        case anyShuffled = "any order, shuffled"
        case anyOnePercent = "any order, shuffled, 1% changed"

        var order: String { self == .strictIdentical || self == .strictOnePercent ? "strict" : "any" }
    }

    let count: Int
    private let screens = ["Home", "Search", "Product", "Cart", "Checkout", "Account", "Orders", "Help"]

    private func parameters(_ i: Int) -> [(String, String)] {
        let kind = i % 5
        let ev = kind == 3 ? "add_to_cart" : "screen_view"
        var items = [
            ("ev", ev), ("screen", screens[i % screens.count]), ("seq", String(i)), ("sid", "s-1a2b3c4d"),
            ("ts", String(1_763_712_000_000 + i * 750)),
        ]
        if kind == 3 { items += [("sku", "SKU-\(i % 97)"), ("qty", String(1 + i % 3))] }
        return items
    }

    private func isPurchase(_ i: Int) -> Bool { i % 10 == 9 }

    func ndjson(_ scenario: Scenario) -> String {
        var random = SplitMix64(seed: UInt64(count))
        var order = Array(0..<count)
        if scenario.order == "any" { order.shuffle(using: &random) }
        var lines: [String] = []
        lines.reserveCapacity(count + count / 100)
        for (position, i) in order.enumerated() {
            let changed = (scenario == .strictOnePercent || scenario == .anyOnePercent) && position % 100 == 50
            if changed, scenario == .strictOnePercent, position % 300 == 50 { continue }  // dropped
            if isPurchase(i) {
                let currency = changed ? "USD" : "EUR"
                let body =
                    #"{"event":"purchase","messageId":"m-\#(i)","properties":{"currency":"\#(currency)","order_id":"o-\#(i)","revenue":\#(i % 500).5}}"#
                let request = CapturedRequest(
                    id: String(position + 1), method: "POST", url: "https://collect.example.com/v1/track",
                    headers: [.init(name: "Content-Type", value: "application/json")], body: .text(body))
                lines.append(CaptureFile.ndjsonLine(request))
            } else {
                var query =
                    parameters(i).map { "\($0)=\($1)" }.joined(separator: "&") + "&cb=\(random.next() % 1_000_000)"
                if changed { query = query.replacingOccurrences(of: "screen_view", with: "screenView") }
                lines.append(
                    CaptureFile.ndjsonLine(
                        CapturedRequest(
                            id: String(position + 1), method: "GET", url: "https://collect.example.com/v1/e?" + query)))
            }
            if changed, scenario == .strictOnePercent, position % 300 == 150 {
                lines.append(
                    CaptureFile.ndjsonLine(
                        CapturedRequest(
                            id: "extra-\(position)", method: "GET", url: "https://collect.example.com/v1/e?ev=debug")))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func snapshot(order: String) -> String {
        var entries: [String] = []
        entries.reserveCapacity(count)
        for i in 0..<count {
            if isPurchase(i) {
                entries.append(
                    #"{"method":"POST","url":"https://collect.example.com/v1/track","body":{"event":"purchase","properties":{"currency":"EUR","order_id":{"$regex":"o-[0-9]+"},"revenue":\#(i % 500).5}}}"#
                )
            } else {
                let params = parameters(i).map { key, value in
                    key == "sid"
                        ? #""sid":{"$regex":"s-[0-9a-f]{8}"}"#
                        : key == "ts" ? #""ts":{"$regex":"[0-9]{13}"}"# : #""\#(key)":"\#(value)""#
                }
                entries.append(
                    #"{"method":"GET","url":"https://collect.example.com/v1/e","parameters":{\#(params.joined(separator: ","))}}"#
                )
            }
        }
        return #"{"order":"\#(order)","requests":[\#n"# + entries.joined(separator: ",\n") + "\n]}\n"
    }
}

extension Duration {
    var milliseconds: String {
        String(format: "%.1f", Double(components.seconds) * 1e3 + Double(components.attoseconds) / 1e15)
    }
    static func / (a: Duration, b: Duration) -> Double {
        let seconds = { (d: Duration) in Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
        return seconds(a) / max(seconds(b), 1e-9)
    }
}

extension String {
    func padded(_ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - count))
        return right ? padding + self : self + padding
    }
}
