import TracksnapJSON

extension CaptureFile {
    /// How many requests a capture holds, counted in one pass over its bytes without building
    /// anything: NDJSON's lines that are not blank, a JSON array's elements, a HAR's
    /// `log.entries`. Reading a capture costs many times its size in memory, so a reader that
    /// takes at most so many requests (the control API's ingest) counts first.
    ///
    /// ```swift
    /// CaptureFile.requestCount(of: Array(#"[{"method":"GET","url":"x"},{"method":"GET","url":"y"}]"#.utf8))  // 2
    /// ```
    /// For a malformed capture the count is what the scan saw; reading it tells what is wrong.
    package static func requestCount(of bytes: [UInt8]) -> Int {
        switch format(of: bytes) {
        case nil: return 0
        case .ndjson: return nonBlankLines(bytes)
        case .array: return elementCount(bytes, path: [])
        case .har: return elementCount(bytes, path: ["log", "entries"])
        }
    }

    private static func nonBlankLines(_ bytes: [UInt8]) -> Int {
        var count = 0
        var blank = true
        for byte in bytes {
            if byte == 0x0A {
                if !blank { count += 1 }
                blank = true
            } else if byte != 0x20 && byte != 0x09 && byte != 0x0D {
                blank = false
            }
        }
        return blank ? count : count + 1
    }

    /// The elements of the arrays reached from the top-level value by the object keys in `path`
    /// (every such array, should a key be repeated); the top-level array's when `path` is empty.
    private static func elementCount(_ bytes: [UInt8], path: [String]) -> Int {
        elements(bytes, path: path, keepingRanges: false).count
    }

    /// Each element of a top-level JSON array as its own bytes, found without parsing the
    /// whole: nil unless the bytes are one array, brackets and strings balanced, nothing after it.
    /// Each element is then decoded alone, so that reading a large array costs about what its
    /// requests do (`readArray`); an element that is not valid JSON fails there.
    static func topLevelElements(_ bytes: [UInt8]) -> [Range<Int>]? {
        let scan = elements(bytes, path: [], keepingRanges: true)
        return scan.isOneArray ? scan.ranges : nil
    }

    /// One pass over JSON text: how many elements the target arrays (reached from the top by the
    /// keys of `path`) hold, their byte ranges when asked, and whether the text is one balanced
    /// array and nothing more.
    private static func elements(_ bytes: [UInt8], path: [String], keepingRanges: Bool) -> (
        count: Int, ranges: [Range<Int>], isOneArray: Bool
    ) {
        struct Container {
            var isArray: Bool
            /// Reached from the top by the keys of `path`, so far.
            var onPath: Bool
            /// In an object: the next string is a key.
            var expectsKey: Bool
            var key: String?
        }
        var stack: [Container] = []
        var ranges: [Range<Int>] = []
        var count = 0
        var awaitingElement = false
        var elementStart: Int?
        var balanced = true
        var topLevelValues = 0
        var rootIsArray = false
        var isTarget: Bool {
            guard let top = stack.last else { return false }
            return top.isArray && top.onPath && stack.count == path.count + 1
        }
        func valueStarts(at index: Int) {
            if stack.isEmpty { topLevelValues += 1 }
            if awaitingElement && isTarget {
                elementStart = index
                awaitingElement = false
            }
        }
        func elementEnds(at index: Int) {
            guard isTarget else { return }
            if let start = elementStart {
                count += 1
                if keepingRanges { ranges.append(start..<index) }
            }
            elementStart = nil
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let end = stringEnd(bytes, from: index)
                if let top = stack.last, !top.isArray, top.expectsKey {
                    stack[stack.count - 1].key = key(bytes[index..<end])
                    stack[stack.count - 1].expectsKey = false
                } else {
                    valueStarts(at: index)
                }
                index = end
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                valueStarts(at: index)
                if stack.isEmpty { rootIsArray = byte == UInt8(ascii: "[") }
                var onPath = stack.isEmpty
                if let parent = stack.last, parent.onPath, !parent.isArray, stack.count <= path.count {
                    onPath = parent.key == path[stack.count - 1]
                }
                stack.append(
                    Container(
                        isArray: byte == UInt8(ascii: "["), onPath: onPath, expectsKey: byte != UInt8(ascii: "[")))
                if isTarget { awaitingElement = true }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                elementEnds(at: index)
                if stack.popLast() == nil { balanced = false }
                awaitingElement = false
            case UInt8(ascii: ","):
                elementEnds(at: index)
                if let top = stack.last, !top.isArray { stack[stack.count - 1].expectsKey = true }
                if isTarget { awaitingElement = true }
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ":"):
                break
            default:
                valueStarts(at: index)  // a number, true, false or null
            }
            index += 1
        }
        return (count, ranges, balanced && stack.isEmpty && topLevelValues == 1 && rootIsArray)
    }

    /// The index just past the string that opens at `start`, or the end of the bytes.
    private static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return bytes.count
    }

    /// An object key as JSON reads it: escapes undone (`"\u006cog"` is `log`).
    private static func key(_ quoted: ArraySlice<UInt8>) -> String? {
        guard quoted.count >= 2 else { return nil }
        guard quoted.contains(UInt8(ascii: "\\")) else {
            return String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self)
        }
        return (try? JSONDocument.parse(Array(quoted), file: "key", trackLocations: false))?.value.stringValue
    }
}
