import Foundation
import Testing
import TracksnapJSON

@Suite("JSONValueCoder: Codable types to and from JSONValue")
struct JSONValueCoderTests {
    struct Item: Codable, Equatable {
        var name: String
        var price: JSONValue
        var count: Int?
        var tags: [String]
    }

    static func document(_ text: String) throws -> JSONDocument {
        try JSONDocument.parse(Array(text.utf8), file: "item.json")
    }

    @Test("a number keeps the text it was written with, decoded and encoded again; a nil optional is left out")
    func numberText() throws {
        let item = try JSONValueCoder.decode(
            Item.self, from: Self.document(#"{"name": "a", "price": 12.50, "tags": ["x"]}"#))
        #expect(item == Item(name: "a", price: .number("12.50"), count: nil, tags: ["x"]))
        #expect(try JSONValueCoder.encode(item).serialized() == #"{"name":"a","price":12.50,"tags":["x"]}"#)
    }

    @Test("a mistyped member is an error naming its pointer, at its line and column")
    func mistyped() throws {
        let document = try Self.document("{\n  \"name\": \"a\",\n  \"price\": 1,\n  \"tags\": [\"x\", 2]\n}")
        let error = #expect(throws: JSONParseError.self) { try JSONValueCoder.decode(Item.self, from: document) }
        #expect(error?.description == "item.json:4:17: /tags/1: expected a string")
    }

    @Test("a missing member is an error naming its pointer, at the object that lacks it")
    func missing() throws {
        let document = try Self.document("{\n  \"item\": {\n    \"name\": \"a\"\n  }\n}")
        struct Wrapper: Codable { var item: Item }
        let error = #expect(throws: JSONParseError.self) { try JSONValueCoder.decode(Wrapper.self, from: document) }
        #expect(error?.description == "item.json:2:11: /item/price: missing, and required")
    }
}
