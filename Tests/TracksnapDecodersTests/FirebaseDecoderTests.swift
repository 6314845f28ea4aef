import Foundation
import Testing
import TracksnapDecoders
import TracksnapJSON
import TracksnapTestSupport
import TracksnapTraffic

@Suite(
    "Firebase Analytics: protobuf batches to app-measurement.com/a, named as GA4 names them", .tags(.process),
    .leftToMakeTest)
struct FirebaseDecoderTests {
    /// An upload as the iOS SDK sends it: gzip'd protobuf under a content type it is not.
    static func upload(_ body: [UInt8], host: String = "app-measurement.com", path: String = "/a", gzip: Bool = true)
        throws -> CapturedRequest
    {
        let sent = gzip ? Array(try gzipped(Data(body))) : body
        return CapturedRequest(
            id: "7", method: "POST", url: "https://\(host)\(path)",
            headers: [.init(name: "Content-Type", value: "application/x-www-form-urlencoded")],
            body: .base64(Data(sent).base64EncodedString()))
    }

    @Test("every event of the batch, automatic ones with their GA4 names and the wire names beside them")
    func namesAndValues() throws {
        let install = FirebaseUpload.Install.first
        let request = try Self.upload(FirebaseUpload.checkout(install).body)
        let events = VendorDecoder.firebase.decode(request).events
        #expect(
            events.map(\.name) == [
                "session_start", "screen_view", "add_to_cart", "screen_view", "purchase", "user_engagement",
            ])
        #expect(events.map(\.index) == Array(0..<6))
        #expect(events.allSatisfy { $0.vendor == "firebase" && $0.type == "event" && $0.request == "7" })

        let screen = events[1]
        #expect(screen.properties["firebase_screen_class"] == .string("CartViewController"))
        #expect(screen.properties["firebase_screen"] == .string("Cart"))
        #expect(screen.properties["firebase_event_origin"] == .string("auto"))
        #expect(screen.properties["engagement_time_msec"] == .number("1523"))
        #expect(screen.properties["firebase_screen_id"] == .number("-4612372349239429001"))
        #expect(screen.context["wire_name"] == .string("_vs"))
        #expect(screen.context["wire_names"]?["firebase_screen_class"] == .string("_sc"))

        let cart = events[2]
        #expect(cart.properties["item_id"] == .string("SKU-1"))
        #expect(cart.properties["quantity"] == .number("2"))
        #expect(cart.properties["value"] == .number("12.5"))
        #expect(cart.properties["currency"] == .string("EUR"))
        #expect(cart.context["wire_name"] == nil)

        let checkout = events[3]
        #expect(checkout.properties["firebase_previous_class"] == .string("CartViewController"))
        #expect(checkout.properties["firebase_previous_screen"] == .string("Cart"))

        let context = cart.context
        #expect(context["app_id"] == .string("com.example.shop"))
        #expect(context["platform"] == .string("ios"))
        #expect(context["os_version"] == .string("17.5.1"))
        #expect(context["device_model"] == .string("iPhone15,3"))
        #expect(context["app_version"] == .string("4.2.0"))
        #expect(context["app_instance_id"] == .string("8D2E5A6F0C1B4E7A9F3D2C1B0A9E8D7C"))
        #expect(context["gmp_app_id"] == .string("1:123456789012:ios:4a1f6c2b9d8e7f30"))
        #expect(context["timestamp_millis"] == .number(String(install.startMillis + 3400)))
        #expect(context["user_properties"]?["plan"] == .string("pro"))
        #expect(context["user_properties"]?["first_open_time"] == .number(String(install.firstOpenMillis)))
        #expect(context["user_properties"]?["ga_session_number"] == .number("3"))
        #expect(context["bundle_fields"] == nil)
    }

    @Test("a body not gzip'd reads the same; region1 and any subdomain are Firebase's, other hosts and paths are not")
    func selection() throws {
        let body = FirebaseUpload.checkout(.first).body
        let plain = VendorDecoder.firebase.decode(try Self.upload(body, gzip: false)).events
        #expect(plain.count == 6)
        #expect(plain == VendorDecoder.firebase.decode(try Self.upload(body)).events)
        #expect(
            VendorDecoder.firebase.decode(try Self.upload(body, host: "region1.app-measurement.com")).events.count == 6)
        #expect(VendorDecoder.firebase.decode(try Self.upload(body, host: "eu.app-measurement.com")).events.count == 6)
        #expect(VendorDecoder.firebase.decode(try Self.upload(body, host: "app-measurement.example")) == .unclaimed)
        #expect(VendorDecoder.firebase.decode(try Self.upload(body, path: "/config/app")) == .unclaimed)
        #expect(Decoders.decode(try Self.upload(body)).events.count == 6)
    }

    @Test("an unknown _ name stays as sent; fields the map does not know are kept by number")
    func unknownNames() throws {
        var parameter = ProtobufEncoder()
        parameter.string(1, "_zz")
        parameter.string(2, "kept")
        var event = ProtobufEncoder()
        event.message(1, parameter)
        event.string(2, "_xyz")
        event.varint(9, 5)
        var bundle = ProtobufEncoder()
        bundle.message(2, event)
        bundle.string(52, "G1--")
        var batch = ProtobufEncoder()
        batch.message(1, bundle)
        let decoded = try #require(VendorDecoder.firebase.decode(try Self.upload(batch.bytes)).events.first)
        #expect(decoded.name == "_xyz")
        #expect(decoded.properties == .object(["_zz": .string("kept")]))
        #expect(decoded.context["wire_name"] == nil)
        #expect(decoded.context["bundle_fields"] == .object(["52": .string("G1--")]))
        #expect(decoded.context["event_fields"] == .object(["9": .number("5")]))
    }

    @Test("a truncated body is a decode error naming the byte where it stops")
    func truncated() throws {
        let body = FirebaseUpload.checkout(.first).body
        let result = VendorDecoder.firebase.decode(try Self.upload(Array(body.dropLast(40))))
        let error = try #require(result.error)
        #expect(error.vendor == "firebase")
        #expect(error.reason.hasPrefix("body is not protobuf: byte 1: field 1's length "), "\(error)")
        #expect(error.reason.contains("runs past the end of the message"), "\(error)")
    }

    @Test("an event without a name is a decode error naming its byte")
    func namelessEvent() throws {
        var event = ProtobufEncoder()
        event.int64(3, 1)
        var bundle = ProtobufEncoder()
        bundle.message(2, event)
        var batch = ProtobufEncoder()
        batch.message(1, bundle)
        let error = try #require(VendorDecoder.firebase.decode(try Self.upload(batch.bytes)).error)
        #expect(error.reason == "the event at byte 2 has no name")
    }
}
