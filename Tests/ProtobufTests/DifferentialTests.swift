import Foundation
import Protobuf
import Testing
import TracksnapTestSupport

/// Random messages read here and by Python's `bbpb` (blackboxprotobuf, the version the Makefile's
/// test venv pins): both must read the same fields, numbers and values. Seeded and bounded; a
/// disagreement names the message's hex.
///
/// The generator leaves out what the two readers are meant to read differently: groups (`bbpb`
/// reads none), field number 0 (not protobuf; `bbpb` takes it) and text or bytes that happen to
/// parse as a message (each reader would guess; the reader's own tests cover the guess). Text
/// starts with `_` and bytes with `0xFF`, whose wire type 7 makes them no message.
@Suite("differential against Python bbpb", .tags(.process), .leftToMakeTest)
struct DifferentialTests {
    static let seed: UInt64 = 29
    static let messageCount = 400

    @Test("random messages: the same fields, numbers and values as bbpb")
    func agreesWithBBPB() throws {
        let python = try PackagePaths.sdkPython(for: "bbpb")
        var generator = MessageGenerator(random: SeededGenerator(seed: Self.seed))
        let messages = (0..<Self.messageCount).map { _ in generator.message(depth: 0) }
        let decoded = try withTemporaryDirectory { directory in
            let file = directory.appending(path: "messages.hex")
            try messages.map { $0.map { String(format: "%02x", $0) }.joined() }.joined(separator: "\n")
                .write(to: file, atomically: true, encoding: .utf8)
            let script = PackagePaths.root.appending(path: "Tests/ProtobufTests/Scripts/bbpb_decode.py")
            let run = try runProcess(python, [script.path, file.path], timeout: Bounds.process)
            try #require(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n").map(String.init)
        }
        try #require(decoded.count == messages.count)
        var disagreements: [String] = []
        var fields = 0
        for (bytes, line) in zip(messages, decoded) {
            let expected = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            let entries = try ProtobufValue.read(bytes)
            fields += entries.count
            if let difference = Self.difference(entries, expected, at: "") {
                disagreements.append("\(bytes.map { String(format: "%02x", $0) }.joined()): \(difference)")
            }
        }
        print("differential against bbpb: \(messages.count - disagreements.count) of \(messages.count) messages agree")
        #expect(fields > messages.count * 3, "the generator made too few fields to compare")
        for disagreement in disagreements.prefix(10) { Issue.record(Comment(rawValue: disagreement)) }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements")
    }

    /// Where the reader's fields differ from bbpb's canonical JSON, or nil.
    static func difference(_ entries: [ProtobufEntry], _ expected: [String: Any], at path: String) -> String? {
        var byNumber: [String: [ProtobufValue]] = [:]
        for entry in entries { byNumber[String(entry.number), default: []].append(entry.value) }
        guard Set(byNumber.keys) == Set(expected.keys) else {
            return "\(path): numbers \(byNumber.keys.sorted()) here, \(expected.keys.sorted()) in bbpb"
        }
        for (number, values) in byNumber {
            guard let theirs = expected[number] as? [[String: Any]], theirs.count == values.count else {
                return "\(path)/\(number): \(values.count) values here, bbpb has \(expected[number] ?? "none")"
            }
            for (index, (mine, their)) in zip(values, theirs).enumerated() {
                if let difference = difference(mine, their, at: "\(path)/\(number)[\(index)]") { return difference }
            }
        }
        return nil
    }

    private static func difference(_ mine: ProtobufValue, _ their: [String: Any], at path: String) -> String? {
        let same: Bool
        switch mine {
        case .varint(let raw): same = their["v"] as? String == String(Int64(bitPattern: raw))
        case .fixed32(let raw): same = their["f32"] as? String == String(raw)
        case .fixed64(let raw): same = their["f64"] as? String == String(raw)
        case .text(let text): same = their["t"] as? String == text
        case .bytes(let bytes): same = their["b"] as? String == bytes.map { String(format: "%02x", $0) }.joined()
        case .message(let entries):
            guard let fields = their["m"] as? [String: Any] else { return "\(path): a message here, bbpb has \(their)" }
            return difference(entries, fields, at: path)
        case .group: same = false
        }
        return same ? nil : "\(path): \(mine) here, bbpb has \(their)"
    }
}

/// Random protobuf messages, with the tests' own encoder. Each message is made from a random
/// schema, so that a repeated message field's occurrences share their fields' types, as real
/// messages do (bbpb splits a field whose occurrences disagree, `"1"` and `"1-1"`, losing their order).
struct MessageGenerator {
    var random: SeededGenerator

    enum Kind: CaseIterable {
        case varint, fixed32, fixed64, text, bytes, message
    }

    /// A message type: its fields, each with a number, a kind, how often it repeats, and the
    /// nested type of a message field.
    final class Schema: Sendable {
        let fields: [(number: Int, kind: Kind, nested: Schema?)]
        init(fields: [(number: Int, kind: Kind, nested: Schema?)]) { self.fields = fields }
    }

    mutating func schema(depth: Int) -> Schema {
        var fields: [(number: Int, kind: Kind, nested: Schema?)] = []
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            let number =
                Bool.random(using: &random)
                ? Int.random(in: 1...20, using: &random) : Int.random(in: 1...0x1FFF_FFFF, using: &random)
            guard !fields.contains(where: { $0.number == number }) else { continue }
            let kinds = depth < 3 ? Kind.allCases : Kind.allCases.filter { $0 != .message }
            let kind = kinds.randomElement(using: &random) ?? .varint
            fields.append((number, kind, kind == .message ? schema(depth: depth + 1) : nil))
        }
        return Schema(fields: fields)
    }

    /// A message of a new random schema.
    mutating func message(depth: Int) -> [UInt8] {
        let type = schema(depth: depth)
        return message(of: type)
    }

    mutating func message(of type: Schema) -> [UInt8] {
        var encoder = ProtobufEncoder()
        var fields: [(number: Int, kind: Kind, nested: Schema?)] = []
        for field in type.fields {
            for _ in 0..<Int.random(in: 1...3, using: &random) { fields.append(field) }
        }
        fields.shuffle(using: &random)
        for field in fields {
            switch field.kind {
            case .varint:
                let value: UInt64 =
                    switch Int.random(in: 0...2, using: &random) {
                    case 0: UInt64.random(in: 0...300, using: &random)
                    case 1: UInt64(bitPattern: Int64.random(in: Int64.min...(-1), using: &random))
                    default: UInt64.random(in: 0...UInt64.max, using: &random)
                    }
                encoder.varint(field.number, value)
            case .fixed32: encoder.fixed32(field.number, UInt32.random(in: 0...UInt32.max, using: &random))
            case .fixed64: encoder.fixed64(field.number, UInt64.random(in: 0...UInt64.max, using: &random))
            case .text:
                let words = ["screen_view", "Grüße", "cart", "", "😀", "a b", "\n", "SKU-1"]
                let count = Int.random(in: 0...3, using: &random)
                encoder.string(
                    field.number,
                    "_" + (0..<count).map { _ in words.randomElement(using: &random) ?? "" }.joined(separator: " "))
            case .bytes:
                let tail = (0..<Int.random(in: 0...12, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                }
                encoder.lengthDelimited(field.number, [0xFF] + tail)
            case .message:
                if let nested = field.nested { encoder.lengthDelimited(field.number, message(of: nested)) }
            }
        }
        return encoder.bytes
    }
}
