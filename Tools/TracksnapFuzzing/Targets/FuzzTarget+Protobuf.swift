import Foundation
import Protobuf
import TracksnapDecoders
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

extension FuzzTarget {
    /// The schemaless protobuf reader: an error names a byte inside the input; a message it reads,
    /// written back and read again, gives the same fields at every depth; the Firebase decoder
    /// reads the same bytes as an upload to `app-measurement.com/a`; the descriptor-set decoder
    /// reads them as a message of a type with every kind of field (a failure names a byte), and
    /// the descriptor-set reader reads them as a descriptor set.
    static let protobuf = FuzzTarget(
        "protobuf",
        "ProtobufMessage and ProtobufValue.read, then the Firebase and descriptor-set decoders; an error names a byte of the input, a message written back reads the same",
        seeds: ["Tests/Fuzz/protobuf"]
    ) { bytes throws(PropertyViolation) in
        do {
            let message = try ProtobufMessage(parsing: bytes)
            let fields = message.schemaless()
            let again: [ProtobufEntry]
            do {
                again = try ProtobufValue.read(message.serialized())
            } catch {
                throw PropertyViolation(target: "protobuf", "the message written back does not read: \(error)")
            }
            guard again == fields else {
                throw PropertyViolation(target: "protobuf", "the message written back reads as other fields")
            }
        } catch let error as ProtobufError {
            guard error.offset >= 0, error.offset <= bytes.count, error.description.hasPrefix("byte \(error.offset): ")
            else {
                throw PropertyViolation(target: "protobuf", "an error names no byte of the input: \(error)")
            }
        } catch let violation as PropertyViolation {
            throw violation
        } catch {
            throw PropertyViolation(target: "protobuf", "an unexpected error: \(error)")
        }
        let request = CapturedRequest(
            id: "0", method: "POST", url: "https://app-measurement.com/a",
            body: .base64(Data(bytes).base64EncodedString()))
        _ = VendorDecoder.firebase.decode(request).events.map(\.properties)

        _ = try? ProtobufDescriptors(bytes: bytes)
        guard let decoder = FuzzDescriptor.decoder else {
            throw PropertyViolation(target: "protobuf", "the fuzz target's own descriptor set does not read")
        }
        let message = CapturedRequest(
            id: "0", method: "POST", url: FuzzDescriptor.url, body: .base64(Data(bytes).base64EncodedString()))
        switch decoder.decode(message) {
        case .failed(let error) where !error.reason.hasPrefix("gzip") && !error.reason.contains("byte "):
            throw PropertyViolation(target: "protobuf", "a descriptor-set decode error names no byte: \(error)")
        case .unclaimed:
            throw PropertyViolation(target: "protobuf", "the descriptor-set decoder did not claim its URL")
        default:
            break
        }
    }
}

/// A descriptor set written here, as protoc would write it for
///
/// ```proto
/// package fuzz;
/// enum Kind { A = 0; B = 1; }
/// message Node {
///   string name = 1; int32 count = 2; sint64 delta = 3; Kind kind = 4; repeated int32 values = 5;
///   repeated Node children = 6; map<string, int64> labels = 7; bytes blob = 8; double ratio = 9;
///   float share = 10; fixed64 id = 11; fixed32 small = 12; bool flag = 13; group Legacy = 14 {…}
/// }
/// ```
private enum FuzzDescriptor {
    static let url = "https://fuzz.example/node"

    static let decoder: VendorDecoder? = {
        guard let descriptors = try? ProtobufDescriptors(bytes: set) else { return nil }
        return .protobuf(
            descriptors, routes: [ProtobufRoute(url: FieldFilter(.url, .literal(.string(url))), type: "fuzz.Node")])
    }()

    static var set: [UInt8] {
        let fields = [
            field("name", 1, 9), field("count", 2, 5), field("delta", 3, 18), field("kind", 4, 14, type: ".fuzz.Kind"),
            field("values", 5, 5, repeated: true), field("children", 6, 11, repeated: true, type: ".fuzz.Node"),
            field("labels", 7, 11, repeated: true, type: ".fuzz.Node.LabelsEntry"), field("blob", 8, 12),
            field("ratio", 9, 1), field("share", 10, 2), field("id", 11, 6), field("small", 12, 7),
            field("flag", 13, 8), field("legacy", 14, 10, type: "Node"),
        ]
        let entry = message(
            3, [text(1, "LabelsEntry"), field("key", 1, 9), field("value", 2, 3), message(7, [int(7, 1)])])
        let node = message(4, [text(1, "Node")] + fields + [entry])
        let kind = message(
            5, [text(1, "Kind"), message(2, [text(1, "A"), int(2, 0)]), message(2, [text(1, "B"), int(2, 1)])])
        return ProtobufMessage(fields: [message(1, [text(1, "fuzz.proto"), text(2, "fuzz"), node, kind])])
            .serialized()
    }

    private static func int(_ number: Int, _ value: UInt64) -> ProtobufField {
        ProtobufField(number: number, offset: 0, value: .varint(value))
    }

    private static func text(_ number: Int, _ value: String) -> ProtobufField {
        ProtobufField(number: number, offset: 0, value: .lengthDelimited(Array(value.utf8)[...]))
    }

    private static func message(_ number: Int, _ fields: [ProtobufField]) -> ProtobufField {
        ProtobufField(
            number: number, offset: 0, value: .lengthDelimited(ProtobufMessage(fields: fields).serialized()[...]))
    }

    private static func field(
        _ name: String, _ number: UInt64, _ type: UInt64, repeated: Bool = false, type typeName: String? = nil
    )
        -> ProtobufField
    {
        var fields = [text(1, name), int(3, number), int(4, repeated ? 3 : 1), int(5, type)]
        if let typeName { fields.append(text(6, typeName)) }
        return message(2, fields)
    }
}
