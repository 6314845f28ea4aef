import ArgumentParser
import Foundation
import TracksnapDecoders
import TracksnapJSON
import TracksnapSnapshot
import TracksnapTraffic
import TracksnapValidation

struct Events: CheckedCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what each captured request decodes to: vendor, events, and how its body was read.",
        discussion: """
            "What did my app just send?": the requests --validator's profile selects (default: \
            every request but a browser's own), each with the vendor whose decoder claimed it, its \
            events (name, properties, context, and the consent signals its request carries) and the encodings its body was read through \
            (gzip → form → base64 → JSON). It is the selection and decoding validation uses; \
            secrets are hidden as in every report. --format json writes one JSON array, one element \
            per request (Schemas/events.schema.json). Exit 0, or 2 when a file or the profile \
            cannot be read.
            """
    )

    @OptionGroup var options: TrafficOptions

    @Argument(help: ArgumentHelp("Capture files, read as --capture reads them, before those.", valueName: "capture"))
    var files: [String] = []

    /// The traffic options with the files named without `--capture` first: `tracksnap events
    /// run.har` is what one types to ask what a capture holds.
    var traffic: TrafficOptions {
        var traffic = options
        traffic.capture = files + options.capture
        return traffic
    }

    @Option(help: ArgumentHelp("text or json.", valueName: "format"))
    var format = "text"

    func check() throws {
        guard !traffic.capture.isEmpty else {
            throw ValidationError(
                "a capture file is required: tracksnap events FILE (HAR or NDJSON), or --capture FILE")
        }
        guard ["text", "json"].contains(format) else {
            let meant = NearestNames.didYouMean(format, among: ["text", "json"]).map { "\($0) " } ?? ""
            throw ValidationError("unknown format \"\(format)\"; \(meant)use text or json")
        }
    }

    func run() throws {
        let requests = try traffic.requests()
        let profile: Profile
        do {
            profile = try Profile.load(traffic.validator ?? "default", workspace: traffic.workspace)
        } catch {
            Terminal.error(error.description)
            throw Exit.badInput
        }
        let selection = profile.select(requests, decodingEvents: true)
        for item in selection.undecided { Terminal.error("warning: " + selection.message(item)) }
        if let untried = selection.untriedMessage { Terminal.error("warning: " + untried) }
        var redactor = Redactor(requests: requests)
        // What the personal-data check finds in the events too (an IP address in their properties).
        redactor.personalData.merge(profile.personalData(in: requests, selection: { selection }).found) { $1 }
        let decoded = zip(selection.selected, selection.decoded).map { index, result in
            DecodedRequest(
                number: index + 1, request: requests[index], result: result, redactor: redactor,
                decoders: profile.resolvedDecoders)
        }
        if format == "json" {
            print(JSONValue.array(decoded.map(\.json)).serialized(pretty: true))
        } else {
            print(decoded.map(\.text).joined(separator: "\n"), terminator: decoded.isEmpty ? "" : "\n")
            print(Self.summary(decoded, of: requests.count))
        }
    }

    /// The last line of the text output: how many requests and events, and by vendor.
    static func summary(_ decoded: [DecodedRequest], of total: Int) -> String {
        let events = decoded.reduce(0) { $0 + $1.events.count }
        var byVendor: [String: Int] = [:]
        for request in decoded { for event in request.events { byVendor[event.vendor, default: 0] += 1 } }
        let vendors = byVendor.keys.sorted().map { "\($0) \(byVendor[$0] ?? 0)" }.joined(separator: ", ")
        let undecoded = decoded.filter { $0.vendor == nil }.count
        var line =
            "\(decoded.count) of \(total) request\(total == 1 ? "" : "s") selected, "
            + "\(events) event\(events == 1 ? "" : "s")"
        if !vendors.isEmpty { line += " (\(vendors))" }
        if undecoded > 0 { line += ", \(undecoded) not decoded" }
        return line
    }
}

/// One selected request as `tracksnap events` shows it: secrets hidden by the `Redactor`, the
/// events decoded from the request as captured (the selection validation makes), and the
/// encodings its body was read through (`EncodedLayers.steps`, as the inspector shows them).
struct DecodedRequest {
    let number: Int
    let method: String
    let url: String
    let id: String
    /// The vendor of the decoder that claimed the request; nil when none did.
    let vendor: String?
    let events: [AnalyticsEvent]
    /// Each event's view, secrets hidden.
    let views: [JSONValue]
    let error: String?
    /// The encodings read, step by step: where (`""` the body, `/data` a field of it) and which.
    let chain: [(at: String, encodings: [String])]

    /// - Parameter decoders: the profile's, which name the vendor of an empty batch.
    init(number: Int, request: CapturedRequest, result: DecodeResult, redactor: Redactor, decoders: [VendorDecoder]) {
        self.number = number
        method = request.method
        url = redactor.redact(url: request.url)
        id = request.id
        events = result.events
        views = result.events.map { redactor.redact($0.validationView) }
        error = result.error.map { redactor.redact(text: $0.description) }
        switch result {
        case .events(let events): vendor = events.first?.vendor ?? Decoders.vendor(of: request, using: decoders)
        case .failed(let error): vendor = error.vendor
        case .unclaimed: vendor = nil
        }
        chain = Self.chain(of: request, redactor: redactor)
    }

    /// How the body was read: gzip the capture undid (`Content-Encoding`) or the body still is,
    /// then each text layer (`EncodedLayers.steps`); a body that is not text is `binary`.
    static func chain(of request: CapturedRequest, redactor: Redactor) -> [(at: String, encodings: [String])] {
        var outer: [String] = []
        // `Content-Encoding: gzip, br` lists the codings in the order they were applied: br is outermost.
        if let codings = request.header("Content-Encoding")?.lowercased() {
            outer = codings.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && $0 != "identity" }.reversed()
        }
        var text: String?
        switch redactor.redact(body: request.body) {
        case .text(let body): text = body
        case .base64:
            if let bytes = request.bodyBytes, ContentDecoding.looksGzipped(bytes) {
                // A capture file keeps a body as sent, its Content-Encoding header with it: one layer.
                if !outer.contains("gzip") { outer.append("gzip") }
                let inflated = try? ContentDecoding.decode(bytes, encoding: "gzip", limit: 16 << 20)
                text = inflated.flatMap { String(validating: $0, as: UTF8.self) }.map {
                    redactor.redact(encoded: $0)
                }
            }
            if text == nil { outer.append("binary") }
        case nil: break
        }
        var steps = text.map { EncodedLayers.steps(in: $0).map { ($0.at, $0.encodings) } } ?? []
        if steps.first?.0 == "" {
            steps[0].1 = outer + steps[0].1
        } else if !outer.isEmpty {
            steps.insert(("", outer), at: 0)
        }
        return steps.map { (at: $0.0, encodings: $0.1) }
    }

    /// The element of `--format json`'s array (Schemas/events.schema.json).
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "request": [
                "number": .number(String(number)), "id": .string(id), "method": .string(method), "url": .string(url),
            ],
            "vendor": vendor.map(JSONValue.string) ?? .null,
            "chain": .array(
                chain.map { ["at": .string($0.at), "encodings": .array($0.encodings.map(JSONValue.string))] }),
            "events": .array(
                zip(events, views).map { event, view in
                    guard case .object(var fields) = view else { return view }
                    fields["index"] = .number(String(event.index))
                    if let consent = event.consent { fields["consent"] = consent.json }
                    return .object(fields)
                }),
        ]
        if let error { object["error"] = .string(error) }
        return .object(object)
    }

    /// The text output's lines for this request.
    var text: String {
        var lines = ["#\(number) \(method) \(url)"]
        let read = chain.map { step in
            (step.at.isEmpty ? "" : step.at + ": ") + step.encodings.joined(separator: " → ")
        }.joined(separator: "; ")
        let how = read.isEmpty ? "" : ", read as \(read)"
        if let error {
            lines.append("   not decoded: \(error)\(how)")
        } else if let vendor {
            lines.append("   \(vendor): \(events.count) event\(events.count == 1 ? "" : "s")\(how)")
        } else {
            lines.append("   not decoded: no decoder claims it\(how)")
        }
        for (event, view) in zip(events, views) {
            let name = view["name"]?.stringValue.map { " \"\($0)\"" } ?? ""
            lines.append("   \(event.index + 1). \(event.vendor) \(event.type)\(name)")
            for key in ["properties", "context"] {
                if let value = view[key], value != .object([:]) {
                    lines.append("      \(key): \(value.serialized())")
                }
            }
            if let consent = event.consent { lines.append("      consent: \(consent.json.serialized())") }
        }
        return lines.joined(separator: "\n")
    }
}
