import Protobuf
import Testing
import TracksnapTestSupport

@Suite("The schemaless protobuf reader: every field kept, bad bytes named by offset")
struct ProtobufReaderTests {
    @Test("varints, fixed32, fixed64, text, bytes and nested messages are read with their numbers, in order")
    func readsEveryWireType() throws {
        var inner = ProtobufEncoder()
        inner.varint(1, 150)
        inner.string(2, "_vs")
        var message = ProtobufEncoder()
        message.int64(1, -1)
        message.fixed32(2, 0xDEAD_BEEF)
        message.double(3, 12.5)
        message.string(4, "Grüße")
        message.lengthDelimited(5, [0xFF, 0xFE, 0x00])
        message.message(6, inner)
        message.varint(1, 7)

        let entries = try ProtobufValue.read(message.bytes)
        #expect(entries.map(\.number) == [1, 2, 3, 4, 5, 6, 1])
        #expect(entries[0].value.integer == -1)
        #expect(entries[1].value == .fixed32(0xDEAD_BEEF))
        #expect(entries[2].value == .fixed64(12.5.bitPattern))
        #expect(entries[3].value == .text("Grüße"))
        #expect(entries[4].value == .bytes([0xFF, 0xFE, 0x00]))
        #expect(
            entries[5].value
                == .message([
                    ProtobufEntry(number: 1, value: .varint(150)), ProtobufEntry(number: 2, value: .text("_vs")),
                ]))
        #expect(entries[6].value == .varint(7))
    }

    @Test("a length-delimited field is a message only when it parses entirely; empty is empty text")
    func guessesLengthDelimited() throws {
        var message = ProtobufEncoder()
        message.string(1, "screen_view")  // 's' starts a group that never ends: text
        message.lengthDelimited(2, [0x08, 0x01, 0x0A])  // a tag with its length missing: not a message
        message.lengthDelimited(3, [])
        let entries = try ProtobufValue.read(message.bytes)
        #expect(entries[0].value == .text("screen_view"))
        #expect(entries[1].value == .text("\u{8}\u{1}\n"))
        #expect(entries[2].value == .text(""))
    }

    @Test("the fields of one level keep their byte offsets, and a typed walk reads them")
    func offsetsAndTypedReads() throws {
        var event = ProtobufEncoder()
        event.string(2, "purchase")
        event.int64(3, 1_732_176_000_120)
        var batch = ProtobufEncoder()
        batch.varint(1, 1)
        batch.message(2, event)
        let message = try ProtobufMessage(parsing: batch.bytes)
        #expect(message.fields.map(\.offset) == [0, 2])
        let nested = try #require(try message.first(2)?.message())
        #expect(nested.first(2)?.text == "purchase")
        #expect(nested.first(3)?.integer == 1_732_176_000_120)
        #expect(nested.fields.map(\.offset) == [4, 14])
    }

    /// Bodies that are not protobuf, each with the byte and the words its error must give.
    static let invalid: [(bytes: [UInt8], offset: Int, says: String)] = [
        ([0x08], 1, "ends inside field 1's varint"),
        ([0x08, 0x01, 0x0E, 0x00], 2, "wire type 6"),
        ([0x0F], 0, "wire type 7"),
        ([0x0A, 0x05, 0x61, 0x62], 1, "length 5 runs past the end of the message (2 bytes left)"),
        ([0x08] + [UInt8](repeating: 0xFF, count: 10) + [0x01], 1, "runs past 10 bytes"),
        ([0x09, 0x01, 0x02], 1, "ends inside field 1's 64-bit value"),
        ([0x15, 0x01], 1, "ends inside field 2's 32-bit value"),
        ([0x00, 0x01], 0, "field number 0"),
        ([0x0B, 0x08, 0x01], 0, "group 1 is never closed"),
        ([0x0C], 0, "closes no group"),
        ([0x80], 0, "ends inside a field's tag"),
    ]

    @Test("a body that is not protobuf is an error naming the byte offset", arguments: invalid.indices)
    func invalidBodies(_ index: Int) throws {
        let body = Self.invalid[index]
        let error = try #require(throws: ProtobufError.self) { try ProtobufMessage(parsing: body.bytes) }
        #expect(error.offset == body.offset, "\(error)")
        #expect(error.description.hasPrefix("byte \(body.offset): "), "\(error)")
        #expect(error.description.contains(body.says), "\(error)")
    }

    @Test("a truncated nested message makes its field text or bytes, not an error; the outer length still counts")
    func nestedErrorsAreNotFatal() throws {
        var message = ProtobufEncoder()
        message.lengthDelimited(1, [0x0A, 0x09, 0x01])
        #expect(try ProtobufValue.read(message.bytes) == [ProtobufEntry(number: 1, value: .text("\n\t\u{1}"))])
    }

    @Test("written back, a message reads the same, and a minimal one gives its own bytes")
    func roundTrip() throws {
        var inner = ProtobufEncoder()
        inner.string(1, "x")
        var message = ProtobufEncoder()
        message.message(1, inner)
        message.fixed32(2, 5)
        message.int64(3, -2)
        message.double(4, 0.5)
        message.lengthDelimited(5, [0x0B, 0x08, 0x01, 0x0C])  // a group inside
        let parsed = try ProtobufMessage(parsing: message.bytes)
        #expect(parsed.serialized() == message.bytes)
        #expect(try ProtobufValue.read(parsed.serialized()) == (try ProtobufValue.read(message.bytes)))
    }

    @Test("groups nest only so deep: deeper is an error, not a stack overflow")
    func deepGroups() throws {
        let depth = 10_000
        let body = [UInt8](repeating: 0x0B, count: depth) + [UInt8](repeating: 0x0C, count: depth)
        let error = try #require(throws: ProtobufError.self) { try ProtobufMessage(parsing: body) }
        #expect(error.description.contains("deeper than 64 levels"), "\(error)")
    }
}
