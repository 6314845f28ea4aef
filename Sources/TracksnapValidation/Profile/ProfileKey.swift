import Foundation
import TracksnapDecoders
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic

/// One key of a profile file and how its value is read into a `Profile`: the table a profile is
/// read through (`ProfileKey.all(_:)`, and `ProfileKey.record` inside `"record"`).
///
/// A key reports what is wrong with its value at the value's JSON Pointer, so that the error
/// carries the file's line and column, and returns false when the value cannot be used at all:
/// reading stops there, and the profile is not built.
struct ProfileKey {
    let name: String
    let read: (_ value: JSONValue, _ pointer: String, _ profile: inout Profile, _ parser: inout MatcherParser) -> Bool

    init(_ name: String, read: @escaping (JSONValue, String, inout Profile, inout MatcherParser) -> Bool) {
        self.name = name
        self.read = read
    }

    /// The top-level keys, in the order they are read (and listed in messages); `swiftValidator`
    /// and `{"custom": …}` filters name the extensions given.
    static func all(_ extensions: Extensions) -> [ProfileKey] {
        [
            ProfileKey("$schema") { _, _, _, _ in true },
            ProfileKey("name") { value, _, profile, _ in
                if let name = value.stringValue { profile.name = name }
                return true
            },
            ProfileKey("description") { value, _, profile, _ in
                profile.description = value.stringValue
                return true
            },
            ProfileKey("extends") { value, pointer, profile, parser in
                let names = value.stringValue.map { [$0] } ?? value.arrayValue?.compactMap(\.stringValue)
                guard let names, names.count == (value.arrayValue?.count ?? 1), !names.contains(where: \.isEmpty) else {
                    parser.error(
                        pointer, "\"extends\" names a profile (\"segment\") or a list of them ([\"segment\", \"ga4\"])")
                    return false
                }
                profile.extends = names
                return true
            },
            ProfileKey("filter") { value, pointer, profile, parser in
                profile.filter = ProfileReader.filter(value, at: pointer, extensions, &parser)
                return true
            },
            choice("order", \.order, "\"order\" must be \"strict\" or \"any\""),
            choice("unexpected", \.unexpected, "\"unexpected\" must be \"fail\" or \"allow\""),
            choice(
                "delivery", \.delivery,
                "\"delivery\" must be \"concurrent\" (separate requests may arrive in any order) or \"serial\" (the SDK sends one request after another)"
            ),
            flag("strict", \.strict, "\"strict\" must be true or false"),
            strings(
                "ignore",
                "\"ignore\" is an array of strings: JSON Pointers relative to an entry (\"/parameters/cb\") or key names (\"sentAt\")"
            ) {
                $0.ignore = $0.ignore.union(IgnoreRules($1))
            },
            strings(
                "environment",
                "\"environment\" is an array of strings, as \"ignore\" is: the fields that describe the machine (\"$os\", \"/context/context/library\"), left out when recording"
            ) {
                $0.environment = IgnoreRules($1)
            },
            ProfileKey("severity") { value, pointer, profile, parser in
                guard let object = value.objectValue else {
                    parser.error(pointer, "\"severity\" maps finding codes to \"error\" or \"warning\"")
                    return false
                }
                for (code, level) in object {
                    guard let findingCode = FindingCode(rawValue: code),
                        let severity = level.stringValue.flatMap(Severity.init)
                    else {
                        parser.error(
                            JSONPointer.appending(pointer, code),
                            "\"\(code)\": expected a finding code (\(FindingCode.allCases.map(\.rawValue).joined(separator: ", "))) mapped to \"error\" or \"warning\""
                        )
                        continue
                    }
                    profile.severities[findingCode] = severity
                }
                return true
            },
            ProfileKey("rules") { value, pointer, profile, parser in
                guard let object = value.objectValue else {
                    parser.error(
                        pointer,
                        "\"rules\" maps a vendor (\"ga4\") or one of its rules (\"ga4.purchase_items\") to \"on\", \"off\", \"warning\" or \"error\""
                    )
                    return false
                }
                for (key, level) in object {
                    let place = JSONPointer.appending(pointer, key)
                    guard VendorRule.vendors.contains(key) || VendorRule.named(key) != nil else {
                        let names = VendorRule.vendors + VendorRule.all.map(\.id)
                        let meant = NearestNames.didYouMean(key, among: names).map { "; \($0)" } ?? ""
                        parser.error(
                            place,
                            "\"\(key)\" is no vendor with rules (\(VendorRule.vendors.joined(separator: ", "))) nor one of their rules\(meant)"
                        )
                        continue
                    }
                    guard let setting = level.stringValue.flatMap(RuleSetting.init) else {
                        parser.error(place, "\"\(key)\": expected \"on\", \"off\", \"warning\" or \"error\"")
                        continue
                    }
                    if setting == .error, VendorRule.named(key)?.kind == .recommendation {
                        parser.warning(place, "\"\(key)\" is a recommendation: it is at most a warning")
                    }
                    profile.rules[key] = setting
                }
                return true
            },
            ProfileKey("personalData") { value, pointer, profile, parser in
                guard let policy = PersonalDataPolicy.read(value, at: pointer, &parser) else { return false }
                profile.personalData = policy
                return true
            },
            ProfileKey("consent") { value, pointer, profile, parser in
                guard let declared = ConsentDeclaration.read(value, at: pointer, &parser) else { return false }
                profile.consent = declared
                return true
            },
            ProfileKey("plan") { value, pointer, profile, parser in
                let paths = value.stringValue.map { [$0] } ?? value.arrayValue?.compactMap(\.stringValue)
                guard let paths, paths.count == (value.arrayValue?.count ?? 1), !paths.contains(where: \.isEmpty) else {
                    parser.error(
                        pointer,
                        "\"plan\" is a tracking plan's path (\"shop.plan.json\", relative to the profile) or a list of them"
                    )
                    return false
                }
                let directory = (profile.file.map { ($0 as NSString).deletingLastPathComponent }) ?? ""
                profile.plans = paths.map { path in
                    path.hasPrefix("/") || directory.isEmpty
                        ? path : (directory as NSString).appendingPathComponent(path)
                }
                return true
            },
            ProfileKey("swiftValidator") { value, pointer, profile, parser in
                guard let name = value.stringValue else {
                    parser.error(pointer, "\"swiftValidator\" names a Validator registered in Swift")
                    return false
                }
                if extensions.validators[name] == nil {
                    parser.error(
                        pointer,
                        "no validator is registered as \"\(name)\" (registered: \(extensions.validatorNames.joined(separator: ", "))); \(Extensions.howToAdd(with: "ValidatorRegistry"))"
                    )
                }
                profile.validator = name
                return true
            },
            ProfileKey("decoders") { value, pointer, profile, parser in
                let names = value.arrayValue?.compactMap(\.stringValue)
                if value == "all" {
                    profile.decoders = .all
                } else if let names, names.count == value.arrayValue?.count {
                    profile.decoders = .named(names)
                    for (index, name) in names.enumerated()
                    where VendorDecoder.named(name) == nil && extensions.decoder(named: name) == nil {
                        parser.error(
                            JSONPointer.appending(pointer, index),
                            DecoderChoice.unknownMessage(name, own: extensions.decoders))
                    }
                } else {
                    parser.error(pointer, "\"decoders\" is \"all\" or an array of vendor ids (\"segment\", \"ga4\"…)")
                    return false
                }
                return true
            },
            ProtobufSettings.key,
            ProfileKey("record") { value, pointer, profile, parser in
                guard let object = value.objectValue else {
                    parser.error(
                        pointer,
                        "\"record\" is an object: {\"headers\": [\"X-Client\"]} names the headers a recorded snapshot keeps, {\"context\": [\"page.path\"]} the event context fields"
                    )
                    return false
                }
                return read(object, at: pointer, through: record, into: &profile, &parser) { key, names in
                    "unknown key \"\(key)\" in \"record\"; it has \(names)"
                }
            },
            strings(
                "redact",
                "\"redact\" is an array of strings, as \"ignore\" is: JSON Pointers relative to an entry (\"/body/context/ip\") or key names (\"client_id\")"
            ) {
                $0.redact = IgnoreRules($1)
            },
        ]
    }

    /// The keys of `"record"`.
    static var record: [ProfileKey] {
        [
            strings("headers", "\"headers\" is an array of header names") { $0.recordedHeaders = $1 },
            strings(
                "context",
                "\"context\" is an array of dotted paths into a recorded event's context (\"page.path\", \"library.name\")",
                nonEmpty: true
            ) {
                $0.recordedContext = $1
            },
            flag(
                "generalize", \.generalizes,
                "\"generalize\" is true (volatile values are recorded as matchers) or false"),
            strings(
                "literal",
                "\"literal\" is an array of strings, as \"ignore\" is: the fields recorded as captured, whatever their shape"
            ) {
                $0.literal = IgnoreRules($1)
            },
        ]
    }

    /// Reads an object's members through a table: an unknown key is an error at its own place
    /// (worded by `unknown`, given the key and the table's names), and reading stops at the
    /// first value that cannot be used.
    static func read(
        _ object: [String: JSONValue], at pointer: String, through keys: [ProfileKey], into profile: inout Profile,
        _ parser: inout MatcherParser, unknown: (_ key: String, _ names: String) -> String
    ) -> Bool {
        let names = keys.map(\.name)
        for key in object.keys.sorted() where !names.contains(key) {
            parser.keyError(JSONPointer.appending(pointer, key), unknown(key, names.joined(separator: ", ")))
        }
        for key in keys {
            guard let value = object[key.name] else { continue }
            guard key.read(value, JSONPointer.appending(pointer, key.name), &profile, &parser) else { return false }
        }
        return true
    }

    /// A string that must be one of `Value`'s raw values.
    private static func choice<Value: RawRepresentable<String>>(
        _ name: String, _ keyPath: WritableKeyPath<Profile, Value>, _ message: String
    ) -> ProfileKey {
        ProfileKey(name) { value, pointer, profile, parser in
            guard let choice = value.stringValue.flatMap(Value.init(rawValue:)) else {
                parser.error(pointer, message)
                return false
            }
            profile[keyPath: keyPath] = choice
            return true
        }
    }

    /// `true` or `false`.
    private static func flag(_ name: String, _ keyPath: WritableKeyPath<Profile, Bool>, _ message: String) -> ProfileKey
    {
        ProfileKey(name) { value, pointer, profile, parser in
            guard let flag = value.boolValue else {
                parser.error(pointer, message)
                return false
            }
            profile[keyPath: keyPath] = flag
            return true
        }
    }

    /// An array of strings (none of them empty, with `nonEmpty`).
    private static func strings(
        _ name: String, _ message: String, nonEmpty: Bool = false, apply: @escaping (inout Profile, [String]) -> Void
    ) -> ProfileKey {
        ProfileKey(name) { value, pointer, profile, parser in
            let items = value.arrayValue?.compactMap(\.stringValue)
            guard let items, items.count == value.arrayValue?.count, !(nonEmpty && items.contains(where: \.isEmpty))
            else {
                parser.error(pointer, message)
                return false
            }
            for (index, item) in items.enumerated() where pathRules.contains(name) {
                if let meant = dottedPath(item) {
                    parser.warning(
                        JSONPointer.appending(pointer, index),
                        "\"\(item)\" names one key with dots in it, at any depth; a path is a JSON Pointer relative to an entry: \"\(meant)\""
                    )
                }
            }
            apply(&profile, items)
            return true
        }
    }

    /// The keys whose strings are rules of `IgnoreRules`: pointers or bare key names.
    private static let pathRules: Set<String> = ["ignore", "redact", "environment"]

    /// The JSON Pointer a dotted rule was likely meant as (`properties.cart_id` →
    /// `/properties/cart_id`), as `record.context` spells paths: its first part names a place
    /// every entry has. A key that holds dots itself (GA4's `ep.currency`) is no such path.
    static func dottedPath(_ rule: String) -> String? {
        let parts = rule.split(separator: ".", omittingEmptySubsequences: false)
        let places: Set<Substring> = ["properties", "context", "traits", "body", "parameters", "headers", "batch"]
        guard !rule.hasPrefix("/"), parts.count > 1, places.contains(parts[0]), !parts.contains(where: \.isEmpty)
        else { return nil }
        return "/" + parts.joined(separator: "/")
    }
}
