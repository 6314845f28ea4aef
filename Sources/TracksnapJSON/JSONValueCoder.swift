/// `Codable` types to and from `JSONValue`, so that a type written with `Codable` serializes with
/// `JSONValue.serialized` (keys sorted, numbers as written) and is read by tracksnap's own parser.
///
/// ```swift
/// let value = try JSONValueCoder.encode(report)                                   // a JSONValue
/// let back = try JSONValueCoder.decode(ValidationReport.self, from: document)     // errors at file:line:column
/// ```
/// A `nil` optional is left out when its type's `encode(to:)` uses `encodeIfPresent` (as the
/// synthesized one does) and written `null` when it uses `encode`.
package enum JSONValueCoder {
    /// - Throws: `EncodingError` only when the value's own `encode(to:)` throws.
    package static func encode(_ value: some Encodable) throws -> JSONValue {
        let node = Node()
        try value.encode(to: ValueEncoder(node: node, codingPath: []))
        return node.resolved
    }

    /// Decodes a parsed document.
    /// - Throws: `JSONParseError` naming the JSON Pointer of the missing or mistyped member, at
    ///   its line and column when the document kept them.
    package static func decode<T: Decodable>(_ type: T.Type, from document: JSONDocument) throws(JSONParseError) -> T {
        do {
            return try T(from: ValueDecoder(value: document.value, codingPath: []))
        } catch let error as DecodingError {
            let (path, what) = describe(error)
            let pointers = path.indices.reversed().map { pointer(path[...$0]) } + [""]
            // A missing member has no place of its own: the nearest enclosing value's is given.
            let location =
                pointers.lazy.compactMap { document.locations[$0] }.first ?? SourceLocation(line: 1, column: 1)
            throw JSONParseError(
                file: document.file, location: location, message: "\(pointers[0].isEmpty ? "/" : pointers[0]): \(what)")
        } catch {
            throw JSONParseError(file: document.file, location: SourceLocation(line: 1, column: 1), message: "\(error)")
        }
    }

    private static func pointer(_ path: ArraySlice<any CodingKey>) -> String {
        path.reduce("") { pointer, key in
            key.intValue.map { JSONPointer.appending(pointer, $0) } ?? JSONPointer.appending(pointer, key.stringValue)
        }
    }

    /// Where the error is and what was wrong.
    private static func describe(_ error: DecodingError) -> (path: [any CodingKey], message: String) {
        switch error {
        case .keyNotFound(let key, let context): (context.codingPath + [key], "missing, and required")
        case .valueNotFound(let type, let context): (context.codingPath, "expected \(name(type)), not null")
        case .typeMismatch(let type, let context): (context.codingPath, "expected \(name(type))")
        case .dataCorrupted(let context): (context.codingPath, context.debugDescription)
        @unknown default: ([], "\(error)")
        }
    }

    private static func name(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is any BinaryInteger.Type: "an integer"
        case is any BinaryFloatingPoint.Type: "a number"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }

    // MARK: Encoding

    /// What one value encodes to: a JSON value, or the members or items its containers receive.
    final class Node {
        var value: JSONValue?
        var members: [String: Node]?
        var items: [Node]?

        var resolved: JSONValue {
            if let members { return .object(members.mapValues(\.resolved)) }
            if let items { return .array(items.map(\.resolved)) }
            return value ?? .object([:])
        }
    }

    struct ValueEncoder: Encoder {
        let node: Node
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if node.members == nil { node.members = [:] }
            return KeyedEncodingContainer(KeyedEncoder(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if node.items == nil { node.items = [] }
            return UnkeyedEncoder(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleEncoder(node: node, codingPath: codingPath)
        }
    }

    struct KeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        private func child(_ key: Key) -> Node { child(named: key.stringValue) }

        private func child(named name: String) -> Node {
            let child = Node()
            node.members?[name] = child
            return child
        }

        mutating func encodeNil(forKey key: Key) { child(key).value = .null }
        mutating func encode(_ value: Bool, forKey key: Key) { child(key).value = .bool(value) }
        mutating func encode(_ value: String, forKey key: Key) { child(key).value = .string(value) }
        mutating func encode(_ value: Double, forKey key: Key) { child(key).value = .number(value) }
        mutating func encode(_ value: Float, forKey key: Key) { child(key).value = .number(Double(value)) }
        mutating func encode(_ value: Int, forKey key: Key) { child(key).value = .number(value) }
        mutating func encode(_ value: Int8, forKey key: Key) { child(key).value = .number(String(value)) }
        mutating func encode(_ value: Int16, forKey key: Key) { child(key).value = .number(String(value)) }
        mutating func encode(_ value: Int32, forKey key: Key) { child(key).value = .number(String(value)) }
        mutating func encode(_ value: Int64, forKey key: Key) { child(key).value = .number(String(value)) }
        mutating func encode(_ value: UInt, forKey key: Key) { child(key).value = .number(String(value)) }
        mutating func encode(_ value: UInt8, forKey key: Key) { child(key).value = .number(String(value)) }
        mutating func encode(_ value: UInt16, forKey key: Key) { child(key).value = .number(String(value)) }
        mutating func encode(_ value: UInt32, forKey key: Key) { child(key).value = .number(String(value)) }
        mutating func encode(_ value: UInt64, forKey key: Key) { child(key).value = .number(String(value)) }

        mutating func encode(_ value: some Encodable, forKey key: Key) throws {
            try value.encode(to: ValueEncoder(node: child(key), codingPath: codingPath + [key]))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            ValueEncoder(node: child(key), codingPath: codingPath + [key]).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            ValueEncoder(node: child(key), codingPath: codingPath + [key]).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            ValueEncoder(node: child(named: "super"), codingPath: codingPath)
        }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            ValueEncoder(node: child(key), codingPath: codingPath + [key])
        }
    }

    struct UnkeyedEncoder: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var count: Int { node.items?.count ?? 0 }

        private func next() -> Node {
            let item = Node()
            node.items?.append(item)
            return item
        }

        mutating func encodeNil() { next().value = .null }
        mutating func encode(_ value: Bool) { next().value = .bool(value) }
        mutating func encode(_ value: String) { next().value = .string(value) }
        mutating func encode(_ value: Double) { next().value = .number(value) }
        mutating func encode(_ value: Float) { next().value = .number(Double(value)) }
        mutating func encode(_ value: Int) { next().value = .number(value) }
        mutating func encode(_ value: Int8) { next().value = .number(String(value)) }
        mutating func encode(_ value: Int16) { next().value = .number(String(value)) }
        mutating func encode(_ value: Int32) { next().value = .number(String(value)) }
        mutating func encode(_ value: Int64) { next().value = .number(String(value)) }
        mutating func encode(_ value: UInt) { next().value = .number(String(value)) }
        mutating func encode(_ value: UInt8) { next().value = .number(String(value)) }
        mutating func encode(_ value: UInt16) { next().value = .number(String(value)) }
        mutating func encode(_ value: UInt32) { next().value = .number(String(value)) }
        mutating func encode(_ value: UInt64) { next().value = .number(String(value)) }

        mutating func encode(_ value: some Encodable) throws {
            try value.encode(to: ValueEncoder(node: next(), codingPath: codingPath + [Index(count)]))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedEncodingContainer<
            NestedKey
        > {
            ValueEncoder(node: next(), codingPath: codingPath + [Index(count)]).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            ValueEncoder(node: next(), codingPath: codingPath + [Index(count)]).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            ValueEncoder(node: next(), codingPath: codingPath + [Index(count)])
        }
    }

    struct SingleEncoder: SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil() { node.value = .null }
        mutating func encode(_ value: Bool) { node.value = .bool(value) }
        mutating func encode(_ value: String) { node.value = .string(value) }
        mutating func encode(_ value: Double) { node.value = .number(value) }
        mutating func encode(_ value: Float) { node.value = .number(Double(value)) }
        mutating func encode(_ value: Int) { node.value = .number(value) }
        mutating func encode(_ value: Int8) { node.value = .number(String(value)) }
        mutating func encode(_ value: Int16) { node.value = .number(String(value)) }
        mutating func encode(_ value: Int32) { node.value = .number(String(value)) }
        mutating func encode(_ value: Int64) { node.value = .number(String(value)) }
        mutating func encode(_ value: UInt) { node.value = .number(String(value)) }
        mutating func encode(_ value: UInt8) { node.value = .number(String(value)) }
        mutating func encode(_ value: UInt16) { node.value = .number(String(value)) }
        mutating func encode(_ value: UInt32) { node.value = .number(String(value)) }
        mutating func encode(_ value: UInt64) { node.value = .number(String(value)) }
        mutating func encode(_ value: some Encodable) throws {
            try value.encode(to: ValueEncoder(node: node, codingPath: codingPath))
        }
    }

    // MARK: Decoding

    struct ValueDecoder: Decoder {
        let value: JSONValue
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard let members = value.objectValue else { throw mismatch([String: JSONValue].self, value, codingPath) }
            return KeyedDecodingContainer(KeyedDecoder(members: members, codingPath: codingPath))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard let items = value.arrayValue else { throw mismatch([JSONValue].self, value, codingPath) }
            return UnkeyedDecoder(items: items, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueDecodingContainer {
            SingleDecoder(value: value, codingPath: codingPath)
        }
    }

    static func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
        if value == .null {
            return .valueNotFound(type, DecodingError.Context(codingPath: path, debugDescription: "null"))
        }
        return .typeMismatch(type, DecodingError.Context(codingPath: path, debugDescription: "found \(value.typeName)"))
    }

    /// A scalar of a primitive type, numbers read from their text (`3.0` is the integer 3).
    static func scalar<T>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) throws -> T {
        let result: Any? =
            switch (value, type) {
            case (.bool(let bool), is Bool.Type): bool
            case (.string(let string), is String.Type): string
            case (.number(let text), is Double.Type): Double(text)
            case (.number(let text), is Float.Type): Float(text)
            case (.number(let text), let integer as any (BinaryInteger & LosslessStringConvertible).Type):
                integer.init(text) ?? Double(text).flatMap { integer.init(exactly: $0) }
            default: nil
            }
        guard let result = result as? T else { throw mismatch(type, value, path) }
        return result
    }

    struct KeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: JSONValue]
        let codingPath: [any CodingKey]
        var allKeys: [Key] { members.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        private func member(_ key: Key) throws -> JSONValue {
            guard let value = members[key.stringValue] else {
                throw DecodingError.keyNotFound(
                    key, DecodingError.Context(codingPath: codingPath, debugDescription: "missing"))
            }
            return value
        }

        private func scalar<T>(_ type: T.Type, _ key: Key) throws -> T {
            try JSONValueCoder.scalar(type, member(key), codingPath + [key])
        }

        func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(type, key) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(type, key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(type, key) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try scalar(type, key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try scalar(type, key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try scalar(type, key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try scalar(type, key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try scalar(type, key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try scalar(type, key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try scalar(type, key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try scalar(type, key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try scalar(type, key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try scalar(type, key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try scalar(type, key) }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try T(from: ValueDecoder(value: member(key), codingPath: codingPath + [key]))
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try ValueDecoder(value: member(key), codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try ValueDecoder(value: member(key), codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            ValueDecoder(value: members["super"] ?? .null, codingPath: codingPath)
        }
        func superDecoder(forKey key: Key) throws -> any Decoder {
            ValueDecoder(value: try member(key), codingPath: codingPath + [key])
        }
    }

    struct UnkeyedDecoder: UnkeyedDecodingContainer {
        let items: [JSONValue]
        let codingPath: [any CodingKey]
        var currentIndex = 0
        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        init(items: [JSONValue], codingPath: [any CodingKey]) {
            self.items = items
            self.codingPath = codingPath
        }

        private mutating func next() throws -> (value: JSONValue, path: [any CodingKey]) {
            let path = codingPath + [Index(currentIndex)]
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    JSONValue.self, DecodingError.Context(codingPath: path, debugDescription: "past the end"))
            }
            defer { currentIndex += 1 }
            return (items[currentIndex], path)
        }

        private mutating func scalar<T>(_ type: T.Type) throws -> T {
            let (value, path) = try next()
            return try JSONValueCoder.scalar(type, value, path)
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, items[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try scalar(type) }
        mutating func decode(_ type: String.Type) throws -> String { try scalar(type) }
        mutating func decode(_ type: Double.Type) throws -> Double { try scalar(type) }
        mutating func decode(_ type: Float.Type) throws -> Float { try scalar(type) }
        mutating func decode(_ type: Int.Type) throws -> Int { try scalar(type) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try scalar(type) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try scalar(type) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try scalar(type) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try scalar(type) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try scalar(type) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(type) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(type) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(type) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(type) }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let (value, path) = try next()
            return try T(from: ValueDecoder(value: value, codingPath: path))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            let (value, path) = try next()
            return try ValueDecoder(value: value, codingPath: path).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let (value, path) = try next()
            return try ValueDecoder(value: value, codingPath: path).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder {
            let (value, path) = try next()
            return ValueDecoder(value: value, codingPath: path)
        }
    }

    struct SingleDecoder: SingleValueDecodingContainer {
        let value: JSONValue
        let codingPath: [any CodingKey]

        private func scalar<T>(_ type: T.Type) throws -> T { try JSONValueCoder.scalar(type, value, codingPath) }

        func decodeNil() -> Bool { value == .null }
        func decode(_ type: Bool.Type) throws -> Bool { try scalar(type) }
        func decode(_ type: String.Type) throws -> String { try scalar(type) }
        func decode(_ type: Double.Type) throws -> Double { try scalar(type) }
        func decode(_ type: Float.Type) throws -> Float { try scalar(type) }
        func decode(_ type: Int.Type) throws -> Int { try scalar(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try scalar(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try scalar(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try scalar(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try scalar(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try scalar(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(type) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try T(from: ValueDecoder(value: value, codingPath: codingPath))
        }
    }

    /// An array index in a coding path.
    struct Index: CodingKey {
        let intValue: Int?
        var stringValue: String { String(intValue ?? 0) }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }
}
