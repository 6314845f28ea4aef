import TracksnapJSON

/// The IAB CCPA US Privacy string (`us_privacy`): four characters, the version (`1`), then
/// notice given, opted out of sale and covered by the LSPA, each `Y`, `N` or `-`.
///
/// ```swift
/// try USPrivacy("1YYN").optedOutOfSale  // "Y"
/// ```
public struct USPrivacy: Sendable, Hashable {
    public var version: Int
    public var notice: Character
    public var optedOutOfSale: Character
    public var lspaCovered: Character

    /// - Throws: `ConsentDecodeError` naming the character when the string is not one.
    public init(_ text: String) throws(ConsentDecodeError) {
        let characters = Array(text)
        guard characters.count == 4 else {
            throw ConsentDecodeError("us_privacy \"\(text)\" has \(characters.count) characters, not 4")
        }
        guard let version = characters[0].wholeNumberValue, version == 1 else {
            throw ConsentDecodeError("us_privacy \"\(text)\": character 1 (version) is not 1")
        }
        for (index, character) in characters.enumerated().dropFirst() where !"YN-".contains(character) {
            throw ConsentDecodeError("us_privacy \"\(text)\": character \(index + 1) is not Y, N or -")
        }
        self.version = version
        notice = characters[1]
        optedOutOfSale = characters[2]
        lspaCovered = characters[3]
    }

    var json: [String: JSONValue] {
        [
            "version": .number(String(version)), "notice": .string(String(notice)),
            "opt_out_sale": .string(String(optedOutOfSale)), "lspa": .string(String(lspaCovered)),
        ]
    }
}

/// The header of an IAB Global Privacy Platform string (`gpp`): its version and the ids of
/// the sections it holds (2 TCF EU, 6 US Privacy, 7 US national…), with `gpp_sid`, the
/// sections that apply to the request.
///
/// ```swift
/// try GPPString("DBABMA~CP…").sections  // [2]
/// ```
public struct GPPString: Sendable, Hashable {
    public var version: Int
    public var sections: [Int]
    /// The TCF EU v2 section (id 2), when the string holds one.
    public var tcfSection: String?

    /// - Throws: `ConsentDecodeError` naming the header's field when it cannot be read.
    public init(_ text: String) throws(ConsentDecodeError) {
        let parts = text.split(separator: "~", omittingEmptySubsequences: false)
        guard let header = parts.first, !header.isEmpty else { throw ConsentDecodeError("GPP string: empty") }
        var bits = try ConsentBits(base64URL: header, what: "GPP header")
        let type = try bits.int(6, "Type")
        guard type == 3 else { throw ConsentDecodeError("GPP header: Type at bit 0 is \(type), not 3") }
        version = try bits.int(6, "Version")
        let entries = try bits.int(12, "SectionIds.NumEntries")
        var sections: [Int] = []
        var last = 0
        for entry in 0..<entries {
            let field = "SectionIds[\(entry)]"
            if try bits.bool("\(field).IsRange") {
                let start = last + (try bits.fibonacci("\(field).Start"))
                let end = start + (try bits.fibonacci("\(field).End"))
                guard end - start < 1000 else { throw ConsentDecodeError("GPP header: \(field) is too wide a range") }
                sections += Array(start...end)
                last = end
            } else {
                last += try bits.fibonacci(field)
                sections.append(last)
            }
        }
        guard parts.count - 1 == sections.count else {
            throw ConsentDecodeError(
                "GPP string: its header names \(sections.count) section\(sections.count == 1 ? "" : "s"), it holds \(parts.count - 1)"
            )
        }
        self.sections = sections
        tcfSection = sections.firstIndex(of: 2).map { String(parts[$0 + 1]) }
    }

    var json: [String: JSONValue] {
        ["version": .number(String(version)), "sections": .array(sections.map { .number(String($0)) })]
    }
}
