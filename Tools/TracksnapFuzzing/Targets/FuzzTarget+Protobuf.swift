import Foundation
import Protobuf
import TracksnapDecoders
import TracksnapModel

extension FuzzTarget {
    /// The schemaless protobuf reader: an error names a byte inside the input; a message it reads,
    /// written back and read again, gives the same fields at every depth; the Firebase decoder
    /// reads the same bytes as an upload to `app-measurement.com/a`.
    static let protobuf = FuzzTarget(
        "protobuf",
        "ProtobufMessage and ProtobufValue.read, then the Firebase decoder; an error names a byte of the input, a message written back reads the same",
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
    }
}
