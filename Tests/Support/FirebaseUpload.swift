import Foundation

/// A Firebase Analytics upload as the iOS SDK sends it to `https://app-measurement.com/a`: a
/// protobuf `Batch` of one bundle, written by the tests' own encoder from the field map of
/// `VendorDecoder+Firebase.swift` (whose comment cites where the numbers come from).
///
/// ```swift
/// let body = FirebaseUpload.checkout(.first).body   // protobuf; gzip it as the SDK does
/// ```
public struct FirebaseUpload: Sendable {
    /// A parameter's or user property's value.
    public enum Value: Sendable {
        case string(String)
        case int(Int64)
        case double(Double)
    }

    public struct Event: Sendable {
        public var name: String
        public var parameters: [(String, Value)]
        public var timestampMillis: Int64

        public init(_ name: String, _ parameters: [(String, Value)], at timestampMillis: Int64) {
            self.name = name
            self.parameters = parameters
            self.timestampMillis = timestampMillis
        }
    }

    /// Everything that differs between two installs of one app on two devices, on two days.
    public struct Install: Sendable {
        public var appInstanceID: String
        public var vendorID: String
        public var firebaseInstanceID: String
        public var osVersion: String
        public var deviceModel: String
        public var language: String
        public var timeZoneOffsetMinutes: Int64
        public var gmpVersion: Int64
        /// When the flow starts, milliseconds since 1970.
        public var startMillis: Int64
        public var firstOpenMillis: Int64
        public var sessionNumber: Int64
        public var screenIDs: [Int64]
        public var engagementMillis: Int64
        public var lifetimeEngagementMillis: Int64
        public var bundleIndex: Int64

        /// Seconds since 1970, the session id the SDK sends.
        public var sessionID: Int64 { startMillis / 1000 }

        /// An install on an iPhone, today.
        public static var first: Install {
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            return Install(
                appInstanceID: "8D2E5A6F0C1B4E7A9F3D2C1B0A9E8D7C", vendorID: "3F2504E0-4F89-41D3-9A0C-0305E82C3301",
                firebaseInstanceID: "cXk3bW9rZmRvc2Zqa2xz", osVersion: "17.5.1", deviceModel: "iPhone15,3",
                language: "en-us", timeZoneOffsetMinutes: 60, gmpVersion: 110_500, startMillis: now - 60_000,
                firstOpenMillis: (now / 3_600_000 - 30) * 3_600_000, sessionNumber: 3,
                screenIDs: [-4_612_372_349_239_429_001, 7_300_118_424_885_990_211], engagementMillis: 1523,
                lifetimeEngagementMillis: 482_113, bundleIndex: 7)
        }

        /// Another install of the same app on another device with another OS, yesterday.
        public static var second: Install {
            let now = Int64(Date().timeIntervalSince1970 * 1000) - 86_400_000
            return Install(
                appInstanceID: "F1E2D3C4B5A697887766554433221100", vendorID: "9B1DEB4D-3B7D-4BAD-9BDD-2B0D7B3DCB6D",
                firebaseInstanceID: "ZG9zZmprbHNqZGZrbGpz", osVersion: "18.1", deviceModel: "iPhone16,2",
                language: "de-de", timeZoneOffsetMinutes: -300, gmpVersion: 110_600, startMillis: now - 90_000,
                firstOpenMillis: (now / 3_600_000 - 400) * 3_600_000, sessionNumber: 41,
                screenIDs: [2_215_886_734_004_117_123, -8_024_392_720_512_432_001], engagementMillis: 884,
                lifetimeEngagementMillis: 9_113_200, bundleIndex: 212)
        }
    }

    public var install: Install
    public var events: [Event]
    public var userProperties: [(String, Value)]

    public init(install: Install, events: [Event], userProperties: [(String, Value)]) {
        self.install = install
        self.events = events
        self.userProperties = userProperties
    }

    /// A checkout: session start, the cart screen, an item added, a purchase, engagement.
    /// `rename` renames `add_to_cart`; `price` changes its `value`.
    public static func checkout(_ install: Install, rename: String? = nil, price: Double = 12.5) -> FirebaseUpload {
        let start = install.startMillis
        let auto: (String, Value) = ("_o", .string("auto"))
        return FirebaseUpload(
            install: install,
            events: [
                Event(
                    "_s", [auto, ("_sid", .int(install.sessionID)), ("_sno", .int(install.sessionNumber))], at: start),
                Event(
                    "_vs",
                    [
                        auto, ("_sc", .string("CartViewController")), ("_sn", .string("Cart")),
                        ("_si", .int(install.screenIDs[0])), ("_et", .int(install.engagementMillis)),
                        ("_sid", .int(install.sessionID)), ("_sno", .int(install.sessionNumber)),
                    ], at: start + 1200),
                Event(
                    rename ?? "add_to_cart",
                    [
                        ("_o", .string("app")), ("item_id", .string("SKU-1")), ("quantity", .int(2)),
                        ("value", .double(price)), ("currency", .string("EUR")), ("_si", .int(install.screenIDs[0])),
                        ("_sid", .int(install.sessionID)), ("_sno", .int(install.sessionNumber)),
                    ], at: start + 3400),
                Event(
                    "_vs",
                    [
                        auto, ("_sc", .string("CheckoutViewController")), ("_sn", .string("Checkout")),
                        ("_si", .int(install.screenIDs[1])), ("_pc", .string("CartViewController")),
                        ("_pn", .string("Cart")), ("_pi", .int(install.screenIDs[0])),
                        ("_et", .int(install.engagementMillis * 2)), ("_sid", .int(install.sessionID)),
                        ("_sno", .int(install.sessionNumber)),
                    ], at: start + 5100),
                Event(
                    "purchase",
                    [
                        ("_o", .string("app")), ("value", .double(25)), ("currency", .string("EUR")),
                        ("_si", .int(install.screenIDs[1])), ("_sid", .int(install.sessionID)),
                        ("_sno", .int(install.sessionNumber)),
                    ], at: start + 9800),
                Event(
                    "_e",
                    [
                        auto, ("_et", .int(install.engagementMillis * 5)), ("_si", .int(install.screenIDs[1])),
                        ("_sid", .int(install.sessionID)), ("_sno", .int(install.sessionNumber)),
                    ], at: start + 11_000),
            ],
            userProperties: [
                ("_fot", .int(install.firstOpenMillis)), ("_fi", .int(1)), ("_sid", .int(install.sessionID)),
                ("_sno", .int(install.sessionNumber)), ("_lte", .int(install.lifetimeEngagementMillis)),
                ("_se", .int(install.engagementMillis * 5)), ("plan", .string("pro")),
            ])
    }

    /// The protobuf `Batch`, not compressed.
    public var body: [UInt8] {
        let install = self.install
        var bundle = ProtobufEncoder()
        bundle.varint(1, 1)
        for event in events {
            var message = ProtobufEncoder()
            for (name, value) in event.parameters {
                var parameter = ProtobufEncoder()
                parameter.string(1, name)
                switch value {
                case .string(let text): parameter.string(2, text)
                case .int(let number): parameter.int64(3, number)
                case .double(let number): parameter.double(5, number)
                }
                message.message(1, parameter)
            }
            message.string(2, event.name)
            message.int64(3, event.timestampMillis)
            message.int64(4, event.timestampMillis - 86_400_000)
            bundle.message(2, message)
        }
        for (name, value) in userProperties {
            var property = ProtobufEncoder()
            property.int64(1, install.startMillis - 5000)
            property.string(2, name)
            switch value {
            case .string(let text): property.string(3, text)
            case .int(let number): property.int64(4, number)
            case .double(let number): property.double(6, number)
            }
            bundle.message(3, property)
        }
        let end = events.last?.timestampMillis ?? install.startMillis
        bundle.int64(4, end + 2000)
        bundle.int64(5, install.startMillis)
        bundle.int64(6, end)
        bundle.int64(7, install.startMillis - 3_600_000)
        bundle.string(8, "ios")
        bundle.string(9, install.osVersion)
        bundle.string(10, install.deviceModel)
        bundle.string(11, install.language)
        bundle.int64(12, install.timeZoneOffsetMinutes)
        bundle.string(13, "manual_install")
        bundle.string(14, "com.example.shop")
        bundle.string(16, "4.2.0")
        bundle.int64(17, install.gmpVersion)
        bundle.int64(18, install.gmpVersion)
        bundle.string(21, install.appInstanceID)
        bundle.int64(23, install.bundleIndex)
        bundle.string(25, "1:123456789012:ios:4a1f6c2b9d8e7f30")
        bundle.int64(26, install.startMillis - 3_700_000)
        bundle.string(27, install.vendorID)
        bundle.string(30, install.firebaseInstanceID)
        bundle.int64(31, 4)
        var batch = ProtobufEncoder()
        batch.message(1, bundle)
        return batch.bytes
    }
}
