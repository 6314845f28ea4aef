/// Why bytes are not a protobuf message, and at which byte of the body.
///
/// ```swift
/// do { _ = try ProtobufMessage(parsing: [0x0A, 0x05, 0x61]) } catch { print(error) }
/// // "byte 1: field 1's length 5 runs past the end of the message (1 byte left)"
/// ```
package struct ProtobufError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Kind: Sendable, Hashable {
        /// The bytes end inside a tag, a varint or a fixed-size value.
        case truncated(what: String)
        /// A varint that goes on past ten bytes.
        case varintTooLong
        /// Wire types 6 and 7 do not exist.
        case badWireType(Int, field: Int)
        /// Field number 0, or one beyond 2^29 − 1.
        case badFieldNumber(UInt64)
        /// A length-delimited field longer than what is left.
        case lengthPastEnd(field: Int, length: UInt64, left: Int)
        /// An end-group tag with no group open, or closing another group.
        case unmatchedEndGroup(field: Int)
        /// A group still open at the end of its message.
        case unterminatedGroup(field: Int)
        /// Groups nested deeper than the reader follows.
        case tooDeep(limit: Int)
        /// A number asked for as a nested message.
        case notAMessage(field: Int)
    }

    /// The byte offset, from the start of the body, where reading failed.
    package let offset: Int
    package let kind: Kind

    package init(offset: Int, _ kind: Kind) {
        self.offset = offset
        self.kind = kind
    }

    package var description: String {
        let what: String
        switch kind {
        case .truncated(let part): what = "the message ends inside \(part)"
        case .varintTooLong: what = "a varint runs past 10 bytes"
        case .badWireType(let type, let field): what = "field \(field) has wire type \(type), which does not exist"
        case .badFieldNumber(let number): what = "field number \(number) is not a valid field number"
        case .lengthPastEnd(let field, let length, let left):
            what =
                "field \(field)'s length \(length) runs past the end of the message (\(left) byte\(left == 1 ? "" : "s") left)"
        case .unmatchedEndGroup(let field): what = "an end of group \(field) closes no group"
        case .unterminatedGroup(let field): what = "group \(field) is never closed"
        case .tooDeep(let limit): what = "groups nest deeper than \(limit) levels"
        case .notAMessage(let field): what = "field \(field) is a number, not a nested message"
        }
        return "byte \(offset): \(what)"
    }
}
