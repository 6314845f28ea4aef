public import Foundation

/// A small analytics client, as an app embeds one, sending its traffic to a capture server: a
/// screen view, a batch of two tracked events, a purchase posted under the device's id. Every
/// run draws fresh message ids, timestamps, session and order ids, and reaches the server on
/// its own port, as a real client does; the tracking itself is the same every run.
///
/// ```swift
/// let run1 = AnalyticsClientModel(seed: 1, port: 41_589).ndjson()
/// let run2 = AnalyticsClientModel(seed: 2, port: 52_113, change: .renameEvent).ndjson()
/// ```
public struct AnalyticsClientModel: Sendable {
    /// A change to the tracking, which a snapshot of the unchanged client must report.
    public enum Change: String, Sendable, CaseIterable, CustomStringConvertible {
        /// `Product Added` is sent as `Product Added To Cart`.
        case renameEvent
        /// `Product Viewed` no longer carries `currency`.
        case dropProperty
        /// `Product Viewed`'s `price` is 13.5 instead of 12.5.
        case changeConstant
        /// The screen view is sent twice.
        case sendTwice

        public var description: String { rawValue }
    }

    public var seed: UInt64
    public var port: Int
    public var change: Change?
    /// Also send `order_ref` (`o-` and four random digits): data that differs between runs
    /// without a volatile shape, which only recording from several runs can tell.
    public var sendsOrderReference = false
    /// The capture time of the first request.
    public var start: Date

    /// A store id and an install id the app is configured with: the same in every run.
    public static let storeID = "482915736"
    public static let installID = "6f1c2b7e-3d4a-4e5f-8a9b-0c1d2e3f4a5b"

    public init(seed: UInt64, port: Int, change: Change? = nil, sendsOrderReference: Bool = false) {
        self.seed = seed
        self.port = port
        self.change = change
        self.sendsOrderReference = sendsOrderReference
        start = Date(timeIntervalSince1970: 1_795_000_000 + Double(seed) * 86_400)
    }

    /// The run as tracksnap's NDJSON capture, as `tracksnap serve` records it.
    public func ndjson() -> String {
        var random = SeededGenerator(seed: seed)
        var time = start
        var lines: [String] = []
        let origin = "http://127.0.0.1:\(port)"
        func capture(_ method: String, _ path: String, body: String? = nil, contentType: String? = nil) {
            time += 0.25 + Double(random.next() % 500) / 1000
            var members = [
                "\"id\":\"\(lines.count + 1)\"", "\"method\":\"\(method)\"", "\"url\":\(Self.quoted(origin + path))",
                "\"serverOrigin\":\(Self.quoted(origin))", "\"time\":\(Self.quoted(Self.iso(time)))",
            ]
            var headers = [#"{"name":"Host","value":"127.0.0.1:\#(port)"}"#]
            if let contentType { headers.append(#"{"name":"Content-Type","value":"\#(contentType)"}"#) }
            members.append("\"headers\":[\(headers.joined(separator: ","))]")
            if let body { members.append("\"body\":\(Self.quoted(body))") }
            lines.append("{" + members.joined(separator: ",") + "}")
        }

        let session = 100_000_000_000 + random.next() % 900_000_000_000
        let clientID =
            "\(1_000_000_000 + random.next() % 1_000_000_000).\(Int(start.timeIntervalSince1970) - 86_400 * 30)"
        let screenView =
            "/e?ev=screen_view&screen=Home&ts=\(Int(time.timeIntervalSince1970 * 1000))&sid=\(session)&cid=\(clientID)&rnd=\(Self.hex(&random, count: 16))"
        capture("GET", screenView)
        if change == .sendTwice { capture("GET", screenView) }

        let viewed = [
            #""product_id":"p-42""#, "\"price\":\(change == .changeConstant ? "13.5" : "12.5")", #""quantity":2"#,
            change == .dropProperty ? nil : #""currency":"EUR""#,
        ].compactMap { $0 }.joined(separator: ",")
        let added =
            [#""product_id":"p-42""#, #""quantity":1"#, "\"cart_id\":\"\(Self.base64URL(&random, count: 22))\""]
            + (sendsOrderReference ? ["\"order_ref\":\"o-\(1000 + random.next() % 9000)\""] : [])
        let batch = """
            {"batch":[\
            {"type":"track","event":"Product Viewed","messageId":"\(Self.uuid(&random))","timestamp":"\(Self.iso(time))","properties":{\(viewed)}},\
            {"type":"track","event":"\(change == .renameEvent ? "Product Added To Cart" : "Product Added")","messageId":"\(Self.uuid(&random))",\
            "timestamp":"\(Self.iso(time + 0.1))","properties":{\(added.joined(separator: ","))}}],\
            "context":{"library":{"name":"shop-sdk","version":"1.2.0"},"installId":"\(Self.installID)","storeId":"\(Self.storeID)"},\
            "sentAt":"\(Self.iso(time + 0.2))"}
            """
        capture("POST", "/v1/batch", body: batch, contentType: "application/json")

        let order = 10_000_000_000 + random.next() % 90_000_000_000
        capture(
            "POST", "/v1/devices/\(Self.uuid(&random))/events",
            body: "en=purchase&order_id=\(order)&value=59.5&cu=EUR&ts=\(Int(time.timeIntervalSince1970))",
            contentType: "application/x-www-form-urlencoded")
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: values

    static func uuid(_ random: inout SeededGenerator) -> String {
        let hex = Self.hex(&random, count: 32)
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    static func hex(_ random: inout SeededGenerator, count: Int) -> String {
        // Letters and digits both, as any real token of this length has.
        let alphabet = Array("0123456789abcdef")
        var out = (0..<count).map { _ in alphabet[Int(random.next() % 16)] }
        out[0] = "a"
        out[1] = "7"
        return String(out)
    }

    static func base64URL(_ random: inout SeededGenerator, count: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var out = (0..<count).map { _ in alphabet[Int(random.next() % 64)] }
        // Every class present, as in a random token; the rest as drawn.
        out[0] = "Q"
        out[1] = "z"
        out[2] = "4"
        return String(out)
    }

    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// A JSON string literal.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
