import Foundation
import Inflation
public import TracksnapJSON

/// Personal data an analytics value carries, found by the search that finds secrets
/// (`Secrets.search`): at any depth of any encoding, by its shape (an email address, a phone
/// number, a payment card number, an IBAN, a pair of precise coordinates in text) or by the
/// field it stands in (an advertising id, a latitude or longitude, a phone field's digits, an IP
/// address in an event's properties), each with its value masked for people to read.
///
/// ```swift
/// PersonalData.hits(in: ["properties": ["contact": "ana@example.com"]]).map(\.masked)
/// // ["a***@example.com"]
/// ```
///
/// What it does not find: a SHA-256 (or other) hash of any of these, a card number that fails
/// the Luhn check or is sent as a JSON number, an IBAN that fails mod-97, a UUID outside an
/// advertising-id field, a version string, an amount, a SKU.
public enum PersonalData {
    /// What kind of personal data a value is; the raw value is the kind reports print.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Comparable {
        case email
        case phone
        case paymentCard = "payment_card"
        case iban
        /// An IDFA or GAID in an advertising-id field (`idfa`, `advertisingId`,
        /// `resettable_device_id`…), unless it is all zeros, as the OS sends it when tracking is
        /// limited.
        case advertisingID = "advertising_id"
        /// An IPv4 or IPv6 address in an event's properties (not loopback, not unspecified).
        case ipAddress = "ip_address"
        /// A latitude or longitude with 3 decimals or more (about 110 m: "precise geolocation"
        /// under the CCPA is within 1,850 feet).
        case coordinates
        /// A national identity number in a field that names one: a US Social Security number
        /// (`ssn`: 9 digits) or a UK National Insurance number (`nino`: `QQ123456C`).
        case nationalID = "national_id"

        public static func < (lhs: Kind, rhs: Kind) -> Bool {
            allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
        }
    }

    /// One piece of personal data found in a value.
    public struct Hit: Sendable, Hashable {
        public var kind: Kind
        /// Where it stands, as JSON Pointer tokens into the value searched, going on into the
        /// encodings a string holds (`["properties", "url", "email"]` for a URL's `?email=`).
        public var path: [String]
        /// The value as sent: never shown, only used to find its copies.
        package var value: String
        /// The value as reports show it (`a***@example.com`, `**** **** **** 1111`).
        public var masked: String

        /// `path` as a JSON Pointer.
        public var pointer: String { path.reduce("") { JSONPointer.appending($0, $1) } }
    }

    /// Every piece of personal data in a value, each value once (at the deepest place the
    /// search reaches it first).
    ///
    /// - Parameters:
    ///   - value: an event's or a request's view, or any JSON.
    ///   - vendor: the vendor whose event it is, where a field's meaning depends on it (Adjust's
    ///     `adid` is its own device id, Amplitude's the GAID).
    ///   - addresses: which paths IP addresses are looked for at (an event's `properties`);
    ///     none by default.
    public static func hits(
        in value: JSONValue, vendor: String? = nil, addresses: ([String]) -> Bool = { _ in false }
    ) -> [Hit] {
        if case .string(let text) = value, Secrets.isPlain(text) { return [] }
        var found: [Hit] = []
        var seen: Set<String> = []
        func add(_ kind: Kind, _ raw: String, _ path: [String]) {
            guard seen.insert(raw).inserted else { return }
            found.append(Hit(kind: kind, path: path, value: raw, masked: mask(raw, as: kind)))
        }
        var budget = InflationBudget(limit: Secrets.largestInflation)
        Secrets.search(value, budget: &budget) { key, member, path in
            if let hit = fieldHit(key: key, value: member, vendor: vendor) { add(hit.kind, hit.value, path) }
            return false
        } text: { text, path, _ in
            for (kind, raw) in shapedHits(in: text) { add(kind, raw, path) }
            // Percent-encoded where no encoding is read (a URL's path: `/users/ada%40example.com`),
            // or written with HTML's character references (`ada&#64;example.com`).
            if text.utf8.contains(UInt8(ascii: "%")), let decoded = text.removingPercentEncoding, decoded != text {
                for (kind, raw) in shapedHits(in: decoded) { add(kind, raw, path) }
            }
            if text.utf8.contains(UInt8(ascii: "&")), let decoded = characterReferencesDecoded(text) {
                for (kind, raw) in shapedHits(in: decoded) { add(kind, raw, path) }
            }
            if addresses(path), !path.contains(where: isVersionName) {
                for raw in ipAddresses(in: text) { add(.ipAddress, raw, path) }
            }
        }
        return found
    }

    /// The text with HTML's numeric character references (`&#64;`, `&#x40;`), `&commat;` and
    /// `&period;` decoded; nil when it holds none.
    static func characterReferencesDecoded(_ text: String) -> String? {
        // Most texts with `&` are a URL's query: they hold none of these.
        guard text.contains("&#") || text.contains("&commat;") || text.contains("&period;") else { return nil }
        var out = ""
        var changed = false
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            out += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            guard let semicolon = after.prefix(10).firstIndex(of: ";") else {
                out.append("&")
                rest = after
                continue
            }
            let name = after[..<semicolon]
            let scalar: Unicode.Scalar? =
                switch name {
                case "commat": "@"
                case "period": "."
                default:
                    name.hasPrefix("#x") || name.hasPrefix("#X")
                        ? UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                        : name.hasPrefix("#") ? UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init) : nil
                }
            if let scalar {
                out.unicodeScalars.append(scalar)
                changed = true
                rest = after[after.index(after: semicolon)...]
            } else {
                out.append("&")
                rest = after
            }
        }
        return changed ? out + rest : nil
    }

    /// The personal data a text shows by its shape alone, whatever field holds it: email
    /// addresses, phone numbers in international (`+44 20 7946 0958`) and national forms
    /// (`(415) 555-2671`, `020 7946 0958`), Luhn-valid card numbers, mod-97-valid IBANs, and
    /// `latitude,longitude` pairs with 3 decimals or more.
    ///
    /// ```swift
    /// PersonalData.shapedHits(in: "call +1 415 555 2671")  // [(.phone, "+1 415 555 2671")]
    /// ```
    public static func shapedHits(in text: String) -> [(Kind, String)] {
        guard text.utf8.count >= 6 else { return [] }
        let bytes = Array(text.utf8)
        var found: [(Kind, String)] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let boundary = index == 0 || !isJoined(bytes[index - 1]) || followsPhoneScheme(index, in: bytes)
            var hit: (Kind, Int)?
            if byte == UInt8(ascii: "@") {
                if let bounds = email(around: index, in: bytes) {
                    found.append((.email, String(decoding: bytes[bounds.start..<bounds.end], as: UTF8.self)))
                    index = bounds.end
                    continue
                }
            } else if boundary {
                if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "(") || Secrets.isDigit(byte) {
                    if Secrets.isDigit(byte), let end = Secrets.cardEnd(at: index, in: bytes) {
                        hit = (.paymentCard, end)
                    } else if let end = coordinatePairEnd(at: index, in: bytes) {
                        hit = (.coordinates, end)
                    } else if let end = phoneEnd(at: index, in: bytes) {
                        hit = (.phone, end)
                    }
                } else if byte == UInt8(ascii: "-"), let end = coordinatePairEnd(at: index, in: bytes) {
                    hit = (.coordinates, end)
                } else if isCapital(byte), let iban = ibanEnd(at: index, in: bytes) {
                    // One that fails mod-97 is no IBAN, and its digits no card nor phone either.
                    guard iban.valid else {
                        index = iban.end
                        continue
                    }
                    hit = (.iban, iban.end)
                }
            }
            if let hit {
                found.append((hit.0, String(decoding: bytes[index..<hit.1], as: UTF8.self)))
                index = hit.1
            } else {
                index += 1
            }
        }
        return found
    }

    // MARK: - Fields

    /// Advertising-id fields by their name, lowered, without `_`, `-`, `$`, `:` and `.`.
    static let advertisingIDFields: Set<String> = [
        "idfa", "gaid", "gpsadid", "advertisingid", "googleadvertisingid", "resettabledeviceid", "iosifa",
        "advertiserid", "aaid", "adid", "deviceidfa", "androidadvertisingid", "ifa", "advertisingidentifier",
        "googleadid", "deviceadid",
    ]
    /// Latitude and longitude fields by their name, spelt as `advertisingIDFields` are.
    static let coordinateFields: Set<String> = [
        "lat", "latitude", "lng", "lon", "long", "longitude", "geolat", "geolng", "geolatitude", "geolongitude",
        "locationlat", "locationlng",
    ]
    /// Phone fields by their name, spelt as `advertisingIDFields` are: their value is a phone
    /// number when it has 7 to 15 digits, however it is written.
    static let phoneFields: Set<String> = [
        "phone", "phonenumber", "tel", "telephone", "mobile", "mobilephone", "msisdn", "ph", "cellphone",
    ]

    /// National-id fields by their name, spelt as `advertisingIDFields` are.
    static let nationalIDFields: Set<String> = [
        "ssn", "socialsecuritynumber", "socialsecurityno", "nationalid", "nationalidnumber", "nationalinsurancenumber",
        "nino",
    ]

    /// One of `phoneFields`, or a name that ends in one of the longer ones (`contact_phone`,
    /// `user_phone_number`, `work_mobile`).
    static func isPhoneField(_ name: String) -> Bool {
        phoneFields.contains(name) || ["phone", "phonenumber", "mobile", "telephone"].contains(where: name.hasSuffix)
    }

    static func fieldName(_ key: String) -> String {
        String(key.lowercased().unicodeScalars.filter { !"_-$:. ".unicodeScalars.contains($0) })
    }

    /// What a member's value is by its field's name: an advertising id, a coordinate, a phone.
    static func fieldHit(key: String, value: JSONValue, vendor: String?) -> (kind: Kind, value: String)? {
        let name = fieldName(key)
        switch value {
        case .string(let text):
            if advertisingIDFields.contains(name), !(name == "adid" && vendor == "adjust"), isAdvertisingID(text) {
                return (.advertisingID, text)
            }
            if coordinateFields.contains(name), isPreciseCoordinate(text, longitude: isLongitude(name)) {
                return (.coordinates, text)
            }
            if isPhoneField(name), isPhoneFieldValue(text) { return (.phone, text) }
            if nationalIDFields.contains(name), isNationalID(text) { return (.nationalID, text) }
        case .number(let text):
            if coordinateFields.contains(name), isPreciseCoordinate(text, longitude: isLongitude(name)) {
                return (.coordinates, text)
            }
            if nationalIDFields.contains(name), isNationalID(text) { return (.nationalID, text) }
        default:
            break
        }
        return nil
    }

    private static func isLongitude(_ name: String) -> Bool { name.contains("lng") || name.contains("lon") }

    /// A UUID (8-4-4-4-12 hex digits, or the 32 without dashes) that is not all zeros.
    static func isAdvertisingID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        if bytes.count == 32 { return bytes.allSatisfy(isHex) && bytes.contains { $0 != UInt8(ascii: "0") } }
        guard bytes.count == 36 else { return false }
        var nonZero = false
        for (offset, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(offset) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard isHex(byte) else { return false }
                if byte != UInt8(ascii: "0") { nonZero = true }
            }
        }
        return nonZero
    }

    /// A number within a coordinate's range (90, or 180 for a longitude) with 3 decimals or more.
    static func isPreciseCoordinate(_ text: String, longitude: Bool) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let dot = trimmed.firstIndex(of: "."), let number = Double(trimmed), number.isFinite,
            abs(number) <= (longitude ? 180 : 90)
        else { return false }
        // Trailing zeros add no precision: `48.850` is given to 2 decimals.
        let decimals = trimmed[trimmed.index(after: dot)...].prefix { $0.isASCII && $0.isNumber }
        return decimals.reversed().drop { $0 == "0" }.count >= 3
    }

    /// 7 to 15 digits, with a leading `+` and spaces, dashes, dots or parentheses between them at most.
    static func isPhoneFieldValue(_ text: String) -> Bool {
        var digits = 0
        for (offset, byte) in text.utf8.enumerated() {
            if Secrets.isDigit(byte) {
                digits += 1
            } else if !(byte == UInt8(ascii: "+") && offset == 0) && !" -.()".utf8.contains(byte) {
                return false
            }
        }
        return (7...15).contains(digits)
    }

    /// 9 digits, in groups split by spaces or dashes or not (`123-45-6789`); or 2 letters,
    /// 6 digits and a letter, with spaces or not (`QQ 12 34 56 C`).
    static func isNationalID(_ text: String) -> Bool {
        let kept = text.utf8.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "-") }
        if kept.count == 9, kept.allSatisfy(Secrets.isDigit) { return true }
        return kept.count == 9 && kept.prefix(2).allSatisfy { isCapital($0 & ~0x20) }
            && kept.dropFirst(2).prefix(6).allSatisfy(Secrets.isDigit) && isCapital(kept[8] & ~0x20)
    }

    static func isVersionName(_ token: String) -> Bool {
        let name = fieldName(token)
        return name.contains("version") || name.contains("build") || name.hasSuffix("ver") || name == "v"
    }

    // MARK: - Shapes

    /// The bounds of an email address whose `@` is at `at`: a local part of letters, digits and
    /// `._%+-`, a domain of two or more labels whose last is letters only; not an image's name
    /// (`icon@2x.png`).
    private static func email(around at: Int, in bytes: [UInt8]) -> (start: Int, end: Int)? {
        func isLocal(_ byte: UInt8) -> Bool {
            Secrets.isWordByte(byte) || "._%+-".utf8.contains(byte)
        }
        var start = at
        while start > 0, isLocal(bytes[start - 1]) { start -= 1 }
        while start < at, !Secrets.isWordByte(bytes[start]) { start += 1 }
        guard start < at else { return nil }
        var end = at + 1
        var lastDot: Int?
        while end < bytes.count,
            Secrets.isWordByte(bytes[end]) || bytes[end] == UInt8(ascii: "-")
                || (bytes[end] == UInt8(ascii: ".") && end + 1 < bytes.count && Secrets.isWordByte(bytes[end + 1])
                    && bytes[end - 1] != UInt8(ascii: "@"))
        {
            if bytes[end] == UInt8(ascii: ".") { lastDot = end }
            end += 1
        }
        guard let lastDot, lastDot > at + 1 else { return nil }
        let tld = String(decoding: bytes[(lastDot + 1)..<end], as: UTF8.self).lowercased()
        guard tld.count >= 2, tld.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }), !fileExtensions.contains(tld),
            end == bytes.count || bytes[end] != UInt8(ascii: "@")
        else { return nil }
        return (start, end)
    }

    /// Whether a `tel:` or `sms:` URI's scheme (any case) ends just before `index`.
    private static func followsPhoneScheme(_ index: Int, in bytes: [UInt8]) -> Bool {
        guard index >= 4, bytes[index - 1] == UInt8(ascii: ":") else { return false }
        let scheme = bytes[(index - 4)..<(index - 1)].map { $0 | 0x20 }
        return (scheme == Array("tel".utf8) || scheme == Array("sms".utf8))
            && (index == 4 || !Secrets.isWordByte(bytes[index - 5]))
    }

    private static let fileExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "svg", "webp", "pdf", "heic"]

    /// A phone number starting at `start`: `+` and 8 to 15 digits (a space and a dash may both
    /// split them), or `00` for the `+` in groups; a North American number
    /// (`(415) 555-2671`, `415-555-2671`, `415.555.2671`, `415 555 2671`); or a national number
    /// with its trunk `0` (`020 7946 0958`, `06 12 34 56 78`), 10 or 11 digits in groups of 2 to 5.
    /// Digit groups are split by one space, dash or dot, the same all along; nothing that joins
    /// a word follows.
    private static func phoneEnd(at start: Int, in bytes: [UInt8]) -> Int? {
        var groups: [Int] = []
        var separators: Set<UInt8> = []
        var index = start
        let international = bytes[start] == UInt8(ascii: "+")
        let parenthesised = bytes[start] == UInt8(ascii: "(")
        if international || parenthesised { index += 1 }
        var current = 0
        var end = index
        while index < bytes.count {
            let byte = bytes[index]
            if Secrets.isDigit(byte) {
                current += 1
                index += 1
                end = index
            } else if current > 0,
                let next = groupStart(
                    after: index, in: bytes, international: international,
                    closing: international || (parenthesised && groups.isEmpty))
            {
                groups.append(current)
                current = 0
                if bytes[index] != UInt8(ascii: ")") && bytes[index + 1] != UInt8(ascii: "(") {
                    separators.insert(bytes[index])
                }
                index = next
            } else {
                break
            }
        }
        if current > 0 { groups.append(current) }
        // An international number may mix a space and a dash (`+44 20 7946-0958`); others split alike.
        guard end == bytes.count || !isJoined(bytes[end]), separators.count <= (international ? 2 : 1),
            let first = groups.first
        else {
            return nil
        }
        let digits = groups.reduce(0, +)
        let leading = bytes[international || parenthesised ? start + 1 : start]
        if international {
            return (8...15).contains(digits) && leading != UInt8(ascii: "0") ? end : nil
        }
        // `00` and a country code, as Europe dials abroad (`0044 20 7946 0958`, `001-415-555-2671`):
        // in groups, since 00 and digits alone are as often an id.
        if !parenthesised, groups.count >= 3, first >= 3, start + 2 < end, bytes[start + 1] == UInt8(ascii: "0"),
            leading == UInt8(ascii: "0"), bytes[start + 2] != UInt8(ascii: "0"), (8...15).contains(digits - 2)
        {
            return end
        }
        if groups == [3, 3, 4] {
            let exchange = bytes[start..<end].drop { !Secrets.isDigit($0) }.dropFirst(3).first {
                Secrets.isDigit($0)
            }
            guard leading >= UInt8(ascii: "2"), let exchange, exchange >= UInt8(ascii: "2") else { return nil }
            return parenthesised || !separators.isEmpty ? end : nil
        }
        guard !parenthesised, leading == UInt8(ascii: "0"), groups.count >= 3, (10...11).contains(digits),
            first >= 2, groups.allSatisfy({ (2...5).contains($0) }),
            start + 1 < bytes.count, bytes[start + 1] != UInt8(ascii: "0")
        else { return nil }
        return end
    }

    /// Where the next group of a phone number's digits starts when one group ends at `index`:
    /// after one space, dash or dot; after `)` (and a space) closing an area code; after a space
    /// and `(` opening one in an international number (`+1 (415) 555-2671`).
    private static func groupStart(after index: Int, in bytes: [UInt8], international: Bool, closing: Bool) -> Int? {
        func digit(_ at: Int) -> Bool { at < bytes.count && Secrets.isDigit(bytes[at]) }
        let byte = bytes[index]
        if byte == UInt8(ascii: ")") {
            guard closing else { return nil }
            if digit(index + 1) { return index + 1 }
            if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: " "), digit(index + 2) { return index + 2 }
            return nil
        }
        guard byte == UInt8(ascii: " ") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") else { return nil }
        if digit(index + 1) { return index + 1 }
        if international, byte == UInt8(ascii: " "), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "("),
            digit(index + 2)
        {
            return index + 2
        }
        return nil
    }

    /// An IBAN starting at `start`: a country's two capitals, two check digits, then 11 to 30
    /// capitals and digits, in groups of four split by single spaces or not, passing mod-97.
    private static func ibanEnd(at start: Int, in bytes: [UInt8]) -> (end: Int, valid: Bool)? {
        guard start + 15 <= bytes.count, isCapital(bytes[start]), isCapital(bytes[start + 1]),
            Secrets.isDigit(bytes[start + 2]), Secrets.isDigit(bytes[start + 3])
        else { return nil }
        var characters: [UInt8] = []
        var ends: [Int] = []
        var index = start
        while index < bytes.count, characters.count < 34 {
            let byte = bytes[index]
            if isCapital(byte) || Secrets.isDigit(byte) {
                characters.append(byte)
                index += 1
                ends.append(index)
            } else if byte == UInt8(ascii: " "), index + 1 < bytes.count,
                isCapital(bytes[index + 1]) || Secrets.isDigit(bytes[index + 1])
            {
                index += 1
            } else {
                break
            }
        }
        guard characters.count >= 15 else { return nil }
        // The longest candidate that ends a word and passes.
        for count in stride(from: characters.count, through: 15, by: -1) {
            let end = ends[count - 1]
            guard end == bytes.count || !Secrets.isWordByte(bytes[end]) else { continue }
            if passesMod97(Array(characters[0..<count])) { return (end, true) }
        }
        return (ends[characters.count - 1], false)
    }

    /// ISO 13616's check: the first four characters moved to the end, letters as 10 to 35, the
    /// number modulo 97 is 1.
    static func passesMod97(_ characters: [UInt8]) -> Bool {
        var remainder = 0
        for byte in characters.dropFirst(4) + characters.prefix(4) {
            if Secrets.isDigit(byte) {
                remainder = (remainder * 10 + Int(byte - UInt8(ascii: "0"))) % 97
            } else if isCapital(byte) {
                remainder = (remainder * 100 + Int(byte - UInt8(ascii: "A")) + 10) % 97
            } else {
                return false
            }
        }
        return remainder == 1
    }

    /// `latitude,longitude` or `latitude;longitude` (a space after it or not), each with 3
    /// decimals or more, in range.
    private static func coordinatePairEnd(at start: Int, in bytes: [UInt8]) -> Int? {
        func number(at index: Int) -> (end: Int, text: String)? {
            var end = index
            if end < bytes.count, bytes[end] == UInt8(ascii: "-") { end += 1 }
            while end < bytes.count, Secrets.isDigit(bytes[end]) { end += 1 }
            guard end < bytes.count, bytes[end] == UInt8(ascii: "."), end > index else { return nil }
            end += 1
            while end < bytes.count, Secrets.isDigit(bytes[end]) { end += 1 }
            return (end, String(decoding: bytes[index..<end], as: UTF8.self))
        }
        guard let latitude = number(at: start), isPreciseCoordinate(latitude.text, longitude: false),
            latitude.end < bytes.count,
            bytes[latitude.end] == UInt8(ascii: ",") || bytes[latitude.end] == UInt8(ascii: ";")
        else { return nil }
        var next = latitude.end + 1
        if next < bytes.count, bytes[next] == UInt8(ascii: " ") { next += 1 }
        guard let longitude = number(at: next), isPreciseCoordinate(longitude.text, longitude: true),
            longitude.end == bytes.count || !isJoined(bytes[longitude.end])
        else { return nil }
        return longitude.end
    }

    /// The IPv4 addresses in a text (not `0.0.0.0`, not loopback), and the text itself when it
    /// is an IPv6 address (not `::`, not `::1`).
    static func ipAddresses(in text: String) -> [String] {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.contains(":"), !trimmed.contains("."), isIPv6(trimmed), trimmed != "::", trimmed != "::1" {
            return [trimmed]
        }
        let bytes = Array(text.utf8)
        var found: [String] = []
        var index = 0
        while index < bytes.count {
            guard Secrets.isDigit(bytes[index]), index == 0 || !(isJoined(bytes[index - 1])) else {
                index += 1
                continue
            }
            var end = index
            while end < bytes.count, Secrets.isDigit(bytes[end]) || bytes[end] == UInt8(ascii: ".") { end += 1 }
            let candidate = String(decoding: bytes[index..<end], as: UTF8.self)
            let octets = candidate.split(separator: ".", omittingEmptySubsequences: false)
            if octets.count == 4, end == bytes.count || !isJoined(bytes[end]),
                octets.allSatisfy({ !$0.isEmpty && $0.count <= 3 && (Int($0) ?? 256) <= 255 }),
                octets[0] != "0", octets[0] != "127"
            {
                found.append(candidate)
            }
            index = end
        }
        return found
    }

    private static func isIPv6(_ text: String) -> Bool {
        var address = in6_addr()
        return text.count >= 3 && inet_pton(AF_INET6, text, &address) == 1
    }

    // MARK: - Masks

    /// The value as reports show it: an email's first character and its domain
    /// (`a***@example.com`); a card's last four digits (`**** **** **** 1111`); a phone's last
    /// two digits, its `+`, spaces and dashes kept (`+** ** **** **58`); an IBAN's country and
    /// last four characters (`DE** **** **** **** **30 00`); an advertising id's and a national
    /// id's last four characters (`***-**-6789`); an IP address's first part (`203.*.*.*`); a coordinate's first decimal (`52.5***`).
    public static func mask(_ value: String, as kind: Kind) -> String {
        switch kind {
        case .email:
            guard let at = value.lastIndex(of: "@"), let first = value.first else { return "***" }
            return "\(first)***\(value[at...])"
        case .paymentCard:
            return "**** **** **** " + String(value.filter(\.isNumber).suffix(4))
        case .phone, .iban, .advertisingID, .nationalID:
            let kept = kind == .phone ? 2 : 4
            let characters = Array(value)
            let masked = characters.indices.filter { characters[$0].isLetter || characters[$0].isNumber }
            let hidden = Set(masked.dropLast(kept).dropFirst(kind == .iban ? 2 : 0))
            return String(characters.indices.map { hidden.contains($0) ? "*" : characters[$0] })
        case .ipAddress:
            if value.contains(".") {
                return (value.split(separator: ".").first.map(String.init) ?? "*") + ".*.*.*"
            }
            return (value.split(separator: ":").first.map(String.init) ?? "") + ":****"
        case .coordinates:
            guard let dot = value.firstIndex(of: ".") else { return "***" }
            return String(value[...value.index(after: dot)]) + "***"
        }
    }

    // MARK: - Bytes

    private static func isCapital(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
    private static func isHex(_ byte: UInt8) -> Bool {
        Secrets.isDigit(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66)
    }
    /// A byte that joins what precedes or follows it into one token (`v1.2.3`, `sku-0123`, `a_b`).
    private static func isJoined(_ byte: UInt8) -> Bool {
        Secrets.isWordByte(byte) || "._-/+:#$%&@".utf8.contains(byte)
    }
}
