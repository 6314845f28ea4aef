import Foundation

/// A TelemetryDeck-like SDK's batch: one JSON array of signals POSTed to `/v2/`, each signal
/// with its event name in `type`, whose order varies from run to run (the SDK's queue hops
/// between dispatch queues), with a fresh session id and receive times in each run.
///
/// ```swift
/// let body = SignalBatchModel(seed: 3).body   // the same four signals, in run 3's order
/// ```
public struct SignalBatchModel: Sendable {
    /// A real change to the tracking, which a snapshot must catch.
    public enum Change: String, Sendable, CaseIterable {
        /// `checkoutStarted` is sent as `checkoutBegan`.
        case renameSignal
        /// `itemAdded` is not sent.
        case dropSignal
        /// A fifth signal is sent.
        case extraSignal
    }

    public static let url = "https://nom.telemetrydeck.com/v2/"
    public static let appID = "B97579B6-FFB8-4AC5-AAA7-DA5796CC5DCE"

    public var seed: UInt64
    /// Whether the signals keep the order they were queued in (a run whose queue did not hop).
    public var queued: Bool
    public var change: Change?

    public init(seed: UInt64, queued: Bool = false, change: Change? = nil) {
        self.seed = seed
        self.queued = queued
        self.change = change
    }

    /// The signals queued, as (type, payload, floatValue).
    private var signals: [(type: String, payload: [String: String], float: String?)] {
        var signals: [(type: String, payload: [String: String], float: String?)] = [
            ("appLaunched", [:], nil),
            ("screenShown", ["screen": "Home"], nil),
            ("itemAdded", ["sku": "p-42", "quantity": "2"], "12.5"),
            (change == .renameSignal ? "checkoutBegan" : "checkoutStarted", ["items": "2"], "25"),
        ]
        if change == .dropSignal { signals.remove(at: 2) }
        if change == .extraSignal { signals.append(("itemRemoved", ["sku": "p-42"], nil)) }
        return signals
    }

    /// The request body: the batch as the SDK encodes it, in this run's order.
    public var body: String {
        var generator = SeededGenerator(seed: seed)
        let session = Self.uuid(&generator)
        var elements = signals.enumerated().map { index, signal in
            let payload =
                (signal.payload.merging(
                    [
                        "TelemetryDeck.Device.platform": "Linux", "TelemetryDeck.AppInfo.version": "1.4.0",
                        "TelemetryDeck.SDK.version": "2.9.0",
                    ], uniquingKeysWith: { own, _ in own }))
                .sorted { $0.key < $1.key }.map { "\"\($0.key)\":\"\($0.value)\"" }.joined(separator: ",")
            let second = 10 + Int(seed % 40) + index
            return """
                {"appID":"\(Self.appID)","clientUser":"6f1ed002ab5595859014ebf0951522d9",\
                "isTestMode":"true","payload":{\(payload)},"receivedAt":"2026-11-27T22:41:\(second).\(100 + index)Z",\
                "sessionID":"\(session)","type":"\(signal.type)"\(signal.float.map { ",\"floatValue\":\($0)" } ?? "")}
                """
        }
        if !queued { elements.shuffle(using: &generator) }
        return "[" + elements.joined(separator: ",") + "]"
    }

    /// The run as tracksnap's NDJSON capture file: the one POST.
    public var ndjson: String {
        let body = body.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return #"{"id":"1","method":"POST","url":"\#(Self.url)","#
            + #""headers":[{"name":"Content-Type","value":"application/json"}],"body":"\#(body)"}"# + "\n"
    }

    private static func uuid(_ generator: inout SeededGenerator) -> String {
        let hex = (0..<32).map { _ in String(Int(generator.next() % 16), radix: 16).uppercased() }.joined()
        let parts = [
            hex.prefix(8), hex.dropFirst(8).prefix(4), "4" + hex.dropFirst(13).prefix(3),
            "A" + hex.dropFirst(17).prefix(3), hex.dropFirst(20).prefix(12),
        ]
        return parts.joined(separator: "-")
    }
}
