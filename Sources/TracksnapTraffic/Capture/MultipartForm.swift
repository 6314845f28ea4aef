/// `multipart/form-data` (RFC 7578) by hand: the fields of a form the Graph API SDKs post, and
/// that a secret or personal data can hide in (`EncodedLayers`).
///
/// ```swift
/// let body = "--xYz\r\nContent-Disposition: form-data; name=\"event\"\r\n\r\nCUSTOM_APP_EVENTS\r\n--xYz--\r\n"
/// MultipartForm.fields(in: body)                  // [("event", "CUSTOM_APP_EVENTS")]
/// MultipartForm.fields(in: body, boundary: "xYz")  // the same
/// ```
///
/// Each part is a field: its `Content-Disposition`'s `name`, and its content as text (a file's
/// too). A part without a name is skipped; the preamble and the epilogue are not fields.
package enum MultipartForm {
    /// The boundary a `Content-Type` header's value names (`multipart/form-data; boundary="a b"`),
    /// unquoted; nil when it names none.
    package static func boundary(inContentType value: String) -> String? {
        for parameter in value.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingSpaces.lowercased() == "boundary" else { continue }
            var boundary = pair[1].trimmingSpaces
            if boundary.count >= 2, boundary.first == "\"", boundary.last == "\"" {
                boundary = boundary.dropFirst().dropLast()
            }
            return boundary.isEmpty ? nil : String(boundary)
        }
        return nil
    }

    /// The longest boundary RFC 2046 allows.
    static let longestBoundary = 70

    /// The fields of a multipart body, in order, split at `boundary`; without one, at the
    /// boundary its first line names (`--xYz`), as a body whose header is not at hand starts.
    /// Nil when it is not a multipart form: no boundary line starts it (given no boundary), or
    /// no part names a field.
    package static func fields(in text: String, boundary: String? = nil) -> [(name: String, value: String)]? {
        let bytes = Array(text.utf8)
        let delimiter: [UInt8]
        if let boundary {
            delimiter = Array("--\(boundary)".utf8)
        } else {
            // `--`, then 1 to 70 bytes and no space at the line's end (RFC 2046 §5.1.1).
            guard bytes.starts(with: [0x2D, 0x2D]) else { return nil }
            let lineEnd = bytes.prefix(longestBoundary + 3).firstIndex { $0 == 0x0D || $0 == 0x0A }
            guard let lineEnd, lineEnd > 2, bytes[lineEnd - 1] != 0x20 else { return nil }
            delimiter = Array(bytes[..<lineEnd])
        }
        var fields: [(name: String, value: String)] = []
        var starts = occurrences(of: delimiter, in: bytes).makeIterator()
        guard var start = starts.next() else { return nil }
        // The part after the last delimiter is the close delimiter's `--`, or a cut body's last field.
        while true {
            let next = starts.next()
            if let field = field(in: bytes[(start + delimiter.count)..<(next ?? bytes.count)]) { fields.append(field) }
            guard let next else { break }
            start = next
        }
        return fields.isEmpty ? nil : fields
    }

    /// A part's field: the name its headers give, and the content after the blank line without
    /// the line break that comes before the next delimiter.
    private static func field(in part: ArraySlice<UInt8>) -> (name: String, value: String)? {
        guard
            let blank = firstIndex(of: [0x0D, 0x0A, 0x0D, 0x0A], in: part).map({ ($0, 4) })
                ?? firstIndex(of: [0x0A, 0x0A], in: part).map({ ($0, 2) })
        else { return nil }
        let head = String(decoding: part[..<blank.0], as: UTF8.self)
        guard let name = name(inHead: head) else { return nil }
        var value = part[(blank.0 + blank.1)...]
        if value.last == 0x0A { value = value.dropLast() }
        if value.last == 0x0D { value = value.dropLast() }
        return (name, String(decoding: value, as: UTF8.self))
    }

    /// The `name` parameter of a part's `Content-Disposition` (not `filename`'s).
    private static func name(inHead head: String) -> String? {
        for line in head.split(whereSeparator: \.isNewline) {
            let header = line.split(separator: ":", maxSplits: 1)
            guard header.count == 2, header[0].trimmingSpaces.lowercased() == "content-disposition" else { continue }
            for parameter in header[1].split(separator: ";").dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingSpaces.lowercased() == "name" else { continue }
                let quoted = pair[1].trimmingSpaces
                return String(quoted.first == "\"" ? quoted.dropFirst().prefix { $0 != "\"" } : quoted)
            }
        }
        return nil
    }

    /// Where each copy of `needle` starts in `bytes`, copies not overlapping.
    private static func occurrences(of needle: [UInt8], in bytes: [UInt8]) -> [Int] {
        var found: [Int] = []
        var from = bytes[...]
        while let hit = firstIndex(of: needle, in: from) {
            found.append(hit)
            from = bytes[(hit + needle.count)...]
        }
        return found
    }

    private static func firstIndex(of needle: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        var index = bytes.startIndex
        while index <= bytes.endIndex - needle.count {
            if bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var trimmed = self
        while trimmed.first == " " || trimmed.first == "\t" { trimmed = trimmed.dropFirst() }
        while trimmed.last == " " || trimmed.last == "\t" { trimmed = trimmed.dropLast() }
        return trimmed
    }
}
